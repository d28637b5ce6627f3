import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { CustomFetch } from 'openid-client';
import type { WebhookTargetPolicy } from '@edu/domain';
import { readXml } from '@edu/content-checks';
import { SignInEnv } from '../sign-in.env';
import { BlockedUpstreamUrl, guardedFetch, upstreamTargetPolicy } from '../upstream/guarded-fetch';
import type { SamlApp } from './saml-apps';

/** A fetched metadata document is used for an hour, then fetched again (keys rotate). */
export const SP_METADATA_REFRESH_MS = 60 * 60_000;
/** After a failed fetch the stored metadata_xml is used, and the URL tried again after five minutes. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;
const TIMEOUT_MS = 5_000;
/** As metadata_xml when the app is saved. */
export const MAX_SP_METADATA_BYTES = 256 * 1024;

/** The metadata of an app to use now, or why its metadata_url may not be fetched. */
export type SpMetadata = { xml: string; from: 'metadata_url' | 'metadata_xml' } | { blocked: string };

const blockedBy = (err: unknown): string | undefined => {
  if (err instanceof BlockedUpstreamUrl) return err.message;
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code === 'E_BLOCKED_TARGET' ? cause.message : undefined;
};

/**
 * An app's SAML metadata: fetched from its `metadata_url` through the SSRF guard of tenants'
 * providers (in production https to public addresses on the usual ports; every resolved address
 * checked at connect time; no redirects), within 5 s and 256 KiB, read with the platform's XML
 * reader (no DTD) and cached per replica for an hour. When the URL answers wrongly or not at all,
 * the stored `metadata_xml` is used. A URL pointing where the service may not go is reported, so
 * the sign-in is refused and logged.
 */
@Injectable()
export class SamlSpMetadata {
  private readonly logger = new Logger('SignIn');
  private readonly cache = new LRUCache<string, { xml?: string; at: number }>({ max: 5000 });
  private fetch: CustomFetch;

  constructor(env: SignInEnv) {
    this.fetch = guardedFetch(upstreamTargetPolicy(env.NODE_ENV === 'production'));
  }

  /** Changes where metadata requests may go (tests apply the production rule to local addresses); clears the cache. */
  usePolicy(policy: WebhookTargetPolicy): void {
    this.fetch = guardedFetch(policy);
    this.cache.clear();
  }

  async forApp(app: SamlApp): Promise<SpMetadata> {
    const url = app.saml.metadata_url;
    const key = `${app.id} ${url}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < (hit.xml ? SP_METADATA_REFRESH_MS : RETRY_AFTER_FAILURE_MS)) {
      return hit.xml ? { xml: hit.xml, from: 'metadata_url' } : { xml: app.saml.metadata_xml, from: 'metadata_xml' };
    }
    try {
      const xml = await this.download(url);
      this.cache.set(key, { xml, at: Date.now() });
      return { xml, from: 'metadata_url' };
    } catch (err) {
      const blocked = blockedBy(err);
      if (blocked) return { blocked };
      this.logger.warn(
        { event: 'saml_metadata', app: app.id, url, err: err instanceof Error ? err.message : String(err) },
        'SAML metadata_url failed: using metadata_xml',
      );
      this.cache.set(key, { at: Date.now() });
      return { xml: app.saml.metadata_xml, from: 'metadata_xml' };
    }
  }

  private async download(url: string): Promise<string> {
    const res = await this.fetch(url, {
      method: 'GET',
      headers: { accept: 'application/samlmetadata+xml, application/xml' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'manual',
    } as never);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_SP_METADATA_BYTES) throw new Error(`larger than ${MAX_SP_METADATA_BYTES} bytes`);
    const xml = bytes.toString('utf8');
    const read = readXml(xml);
    if (!read.ok) throw new Error(read.error);
    if (read.root.local !== 'EntityDescriptor') throw new Error('not an EntityDescriptor');
    return xml;
  }
}
