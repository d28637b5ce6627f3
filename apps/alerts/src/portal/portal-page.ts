import type { AttemptView, DeliveryView } from '../deliveries/delivery.view';
import type { WebhookView } from '../webhooks/dto/webhook.dto';
import { esc, layout, PORTAL_PATH } from './portal-html';

export type PortalDelivery = DeliveryView & { attempts: AttemptView[] };

/** What the portal shows: one app's webhooks, each with its latest deliveries at the session's tenant. */
export interface PortalData {
  appName: string;
  tenantName: string;
  expiresAt: Date;
  webhooks: { hook: WebhookView; deliveries: PortalDelivery[] }[];
}

/** The outcome of an action, shown above the webhooks; `secret` is a new secret, shown this once. */
export interface Flash {
  text: string;
  bad?: boolean;
  secret?: string;
}

const time = (iso: string | null): string => (iso ? esc(iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')) : '–');
const badge = (status: string): string => `<span class="badge ${esc(status)}">${esc(status.replace('_', ' '))}</span>`;
/** A redelivery is possible for a finished delivery of a message (the API says why not otherwise). */
const REDELIVERABLE = new Set(['delivered', 'undeliverable', 'cancelled']);

function button(csrf: string, action: string, label: string, primary = false): string {
  return `<form method="post" action="${esc(`${PORTAL_PATH}${action}`)}"><input type="hidden" name="csrf" value="${esc(csrf)}"><button${primary ? ' class="primary"' : ''}>${esc(label)}</button></form>`;
}

function attemptsTable(attempts: AttemptView[]): string {
  if (attempts.length === 0) return '<p class="empty">No attempt.</p>';
  const rows = attempts.map(
    (a) =>
      `<tr><td>${a.attempt_number}</td><td>${time(a.started_at)}</td><td>${a.duration_ms} ms</td><td>${esc(a.response_status ?? '–')}</td><td>${esc(a.error_code ?? '')} ${esc(a.error_message ?? '')}</td><td><pre>${esc(a.response_excerpt ?? '')}</pre></td></tr>`,
  );
  return `<table><thead><tr><th>#</th><th>started</th><th>took</th><th>answer</th><th>error</th><th>answer body (first 2 KB)</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function delivery(d: PortalDelivery, hook: WebhookView, csrf: string): string {
  const what = d.event_type ?? `${d.trigger} ${d.type}`;
  const redeliver =
    d.message_id && REDELIVERABLE.has(d.status) && hook.status === 'active'
      ? button(csrf, `/webhooks/${hook.webhook_id}/deliveries/${d.delivery_id}/redeliver`, 'Redeliver')
      : '';
  return `<details class="delivery" data-delivery="${esc(d.delivery_id)}"><summary>${time(d.created_at)} · ${esc(what)} · ${badge(d.status)}${d.reason ? ` (${esc(d.reason)})` : ''} · ${d.attempt_count} attempt(s)${d.last_status_code ? ` · last answer ${esc(d.last_status_code)}` : ''}${d.next_attempt_at ? ` · next ${time(d.next_attempt_at)}` : ''}</summary>
<p class="facts"><span>delivery ${esc(d.delivery_id)}</span>${d.message_id ? `<span>message ${esc(d.message_id)}</span>` : ''}</p>
${attemptsTable(d.attempts)}${redeliver}</details>`;
}

function webhookCard(hook: WebhookView, deliveries: PortalDelivery[], csrf: string): string {
  const facts = [
    `${esc(hook.kind ?? 'alerts')}${hook.type ? ` · ${esc(hook.type)}` : ''}`,
    `status ${badge(hook.status)}${hook.disabled_reason ? ` ${esc(hook.disabled_reason)} since ${time(hook.disabled_at)}` : ''}`,
    hook.failing_since ? `failing since ${time(hook.failing_since)}` : '',
    hook.rate_limit ? `at most ${hook.rate_limit} a second` : '',
    hook.signing_secret_set ? 'signed (Standard Webhooks)' : 'no signing secret yet',
    hook.previous_secret_expires_at ? `old secret signs until ${time(hook.previous_secret_expires_at)}` : '',
  ].filter(Boolean);
  const actions = [
    button(csrf, `/webhooks/${hook.webhook_id}/test`, 'Send a test', true),
    hook.status === 'disabled' ? button(csrf, `/webhooks/${hook.webhook_id}/enable`, 'Re-enable') : '',
    button(csrf, `/webhooks/${hook.webhook_id}/rotate-secret`, 'Rotate secret'),
  ].join('');
  const list = deliveries.length
    ? deliveries.map((d) => delivery(d, hook, csrf)).join('\n')
    : '<p class="empty">No delivery at this school yet.</p>';
  return `<section class="card webhook" data-webhook="${esc(hook.webhook_id)}"><h2>${esc(hook.endpoint)}</h2>
<p class="facts">${facts.map((f) => `<span>${f}</span>`).join('')}</p>
<div class="actions">${actions}</div>
${list}</section>`;
}

/** The portal's page: the flash of the last action, then every webhook of the app with its latest deliveries. */
export function dashboardPage(data: PortalData, csrf: string, flash?: Flash): string {
  const notice = flash
    ? `<div class="flash${flash.bad ? ' bad' : ''}" role="status">${esc(flash.text)}${flash.secret ? `<code class="secret">${esc(flash.secret)}</code>` : ''}</div>`
    : '';
  const hooks = data.webhooks.length
    ? data.webhooks.map((w) => webhookCard(w.hook, w.deliveries, csrf)).join('\n')
    : '<p class="empty">This app has no webhook.</p>';
  return layout(
    `${data.appName}: webhook deliveries`,
    `<h1>${esc(data.appName)}</h1>
<p class="sub">Webhooks and their latest deliveries at ${esc(data.tenantName)} · this page works until ${time(data.expiresAt.toISOString())}</p>
${notice}
${hooks}`,
  );
}
