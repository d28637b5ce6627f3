import type { KoaContextWithOIDC } from 'oidc-provider';
import { html, page, PAGE_HEADERS, raw } from './html';

function send(ctx: KoaContextWithOIDC, body: string): void {
  for (const [k, v] of Object.entries(PAGE_HEADERS)) ctx.set(k, v);
  ctx.type = 'html';
  ctx.body = body;
}

/**
 * oidc-provider's error page (a request it cannot redirect back: unknown client, unregistered
 * redirect_uri, ...): the protocol's error code and description, never a stack trace.
 */
export async function renderProviderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }, _error: Error): Promise<void> {
  send(
    ctx,
    page({
      title: 'Sign-in error',
      body: html`<h1>Sign-in could not start</h1>
<p class="error" role="alert">${out.error_description ?? 'The request was not valid.'}</p>
<p>Error code: <code>${out.error}</code></p>
<p>Go back to the app you came from and try again. If it keeps happening, tell the app's support team this code.</p>`,
    }),
  );
}

/** RP-initiated logout: confirm signing out (the form carries oidc-provider's xsrf value). */
export async function renderLogout(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const app = ctx.oidc.client?.clientName;
  send(
    ctx,
    page({
      title: 'Sign out',
      body: html`<h1>Sign out${app ? ` of ${app}` : ''}?</h1>
${raw(form)}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary">Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>
</div>`,
    }),
  );
}

export async function renderLoggedOut(ctx: KoaContextWithOIDC): Promise<void> {
  send(ctx, page({ title: 'Signed out', body: html`<h1>You are signed out</h1><p>You can close this page.</p>` }));
}
