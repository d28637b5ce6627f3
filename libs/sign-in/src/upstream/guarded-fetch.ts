import type { CustomFetch } from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { DEFAULT_WEBHOOK_PORTS, webhookTargetProblem, type WebhookTargetPolicy } from '@edu/domain';
import { guardedLookup, systemResolver, type Resolver } from '@edu/http';

/** Raised before any connection when a tenant-configured URL points where the service may not go. */
export class BlockedUpstreamUrl extends Error {
  readonly code = 'E_BLOCKED_TARGET';
}

/** Discovery documents, JWKS and token answers are small; a provider sending more is refused unread. */
export const MAX_ANSWER_BYTES = 1_048_576;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Where requests to tenants' identity providers may go: the webhook rule (SSRF). In production
 * https to public addresses on the usual ports only; outside production, as for the core
 * providers, plain http and local addresses too (test and demo providers on localhost).
 */
export function upstreamTargetPolicy(production: boolean): WebhookTargetPolicy {
  return production
    ? { allowHttp: false, allowPrivate: false, allowedPorts: new Set(DEFAULT_WEBHOOK_PORTS) }
    : { allowHttp: true, allowPrivate: true, allowedPorts: 'any' };
}

/**
 * openid-client's fetch for tenant-configured URLs (discovery, token, JWKS): the URL is checked
 * first, and every address its host resolves to is checked at connect time (the address checked is
 * the address connected to). Redirects are never followed, answers over MAX_ANSWER_BYTES refused.
 */
export function guardedFetch(policy: WebhookTargetPolicy, resolver: Resolver = systemResolver): CustomFetch {
  const agent = new Agent({
    connect: { timeout: 10_000, lookup: guardedLookup(resolver, policy.allowPrivate, () => undefined) },
  });
  return async (url, options) => {
    const problem = webhookTargetProblem(url, policy);
    if (problem) throw new BlockedUpstreamUrl(`${url.split('?')[0]}: ${problem.replace(/^endpoint/, 'the URL')}`);
    const res = await undiciFetch(url, {
      ...options,
      body: options.body as never,
      dispatcher: agent,
      redirect: 'manual',
    });
    const body = NULL_BODY_STATUSES.has(res.status) ? null : await readCapped(res, url);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: [...res.headers] });
  };
}

async function readCapped(res: Awaited<ReturnType<typeof undiciFetch>>, url: string): Promise<Uint8Array> {
  const tooBig = () => new Error(`${url.split('?')[0]}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
    await res.body?.cancel();
    throw tooBig();
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw tooBig();
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}
