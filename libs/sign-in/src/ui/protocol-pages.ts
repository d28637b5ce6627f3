import type { KoaContextWithOIDC } from 'oidc-provider';
import type { PageBrand } from './brand/brand-store';
import { html, page, PAGE_HEADERS, raw } from './html';

function send(ctx: KoaContextWithOIDC, body: string): void {
  for (const [k, v] of Object.entries(PAGE_HEADERS)) ctx.set(k, v);
  ctx.type = 'html';
  ctx.body = body;
}

/** The brand of the host a page is served on (a vanity domain), or undefined. */
export type BrandLookup = (hostname: string) => Promise<PageBrand | undefined>;

/** A brand that cannot be read never keeps a page from being shown. */
const brandOf = (ctx: KoaContextWithOIDC, lookup?: BrandLookup) =>
  lookup ? lookup(ctx.hostname).catch(() => undefined) : Promise.resolve(undefined);

/** oidc-provider's pages, in the portal's look (and the vanity domain's brand when served on one). */
export function protocolPages(lookup?: BrandLookup) {
  return {
    /**
     * The error page (a request it cannot redirect back: unknown client, unregistered
     * redirect_uri, ...): the protocol's error code and description, never a stack trace.
     */
    async renderError(
      ctx: KoaContextWithOIDC,
      out: { error: string; error_description?: string },
      _error: Error,
    ): Promise<void> {
      const body = html`<h1>Sign-in could not start</h1>
<p class="error" role="alert">${out.error_description ?? 'The request was not valid.'}</p>
<p>Error code: <code>${out.error}</code></p>
<p>Go back to the app you came from and try again. If it keeps happening, tell the app's support team this code.</p>`;
      send(ctx, page({ title: 'Sign-in error', body, brand: await brandOf(ctx, lookup) }));
    },

    /** RP-initiated logout: confirm signing out (the form carries oidc-provider's xsrf value). */
    async logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
      const app = ctx.oidc.client?.clientName;
      const body = html`<h1>Sign out${app ? ` of ${app}` : ''}?</h1>
${raw(form)}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary">Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>
</div>`;
      send(ctx, page({ title: 'Sign out', body, brand: await brandOf(ctx, lookup) }));
    },

    async postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
      send(
        ctx,
        page({
          title: 'Signed out',
          body: html`<h1>You are signed out</h1><p>You can close this page.</p>`,
          brand: await brandOf(ctx, lookup),
        }),
      );
    },
  };
}
