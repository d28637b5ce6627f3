import type { SignInTenant } from '../sign-in.repository';
import type { UpstreamProvider } from '../upstream/upstream-provider';
import type { PageBrand } from './brand/brand-store';
import { html, page, type Raw } from './html';

export interface PortalContext {
  uid: string;
  appName: string;
  /** The CSRF token every form of this interaction carries. */
  csrf: string;
  brand?: PageBrand;
}

/** The form field carrying the CSRF token. */
export const CSRF_FIELD = 'csrf';

const heading = (c: { brand?: PageBrand }) => c.brand?.portalName ?? 'Sign in';
const csrfField = (c: PortalContext) => html`<input type="hidden" name="${CSRF_FIELD}" value="${c.csrf}">`;

/** Giving up: a POST (it ends the authorization), so it carries the token too. */
function abortForm(c: PortalContext, label: string): Raw {
  return html`<form method="post" action="/signin/interaction/${c.uid}/abort">${csrfField(c)}<button type="submit" class="link">${label}</button></form>`;
}

/** Choose a school: a search by name (GET, nothing changes, token checked), then links to each match. */
export function schoolPickPage(c: PortalContext, query: string, results: SignInTenant[] | undefined): string {
  const list: Raw | string = results
    ? results.length
      ? html`<h2 id="results-title">Schools matching “${query}”</h2>
<ul class="schools" aria-labelledby="results-title">${results.map((t) => html`<li><a href="/signin/interaction/${c.uid}?tenant=${t.id}">${t.name}</a></li>`)}</ul>`
      : html`<p role="status">No school using ${c.appName} matches “${query}”.</p>`
    : '';
  return page({
    title: `${heading(c)}: choose your school`,
    brand: c.brand,
    body: html`<h1>${heading(c)}</h1>
<p>Sign in to <strong>${c.appName}</strong> with your school account.</p>
<form method="get" action="/signin/interaction/${c.uid}" role="search">
${csrfField(c)}
<label for="q">Find your school</label>
<input id="q" name="q" type="search" value="${query}" required minlength="2" maxlength="100" autocomplete="organization">
<button type="submit" class="primary">Search</button>
</form>
${list}
${abortForm(c, `Cancel and go back to ${c.appName}`)}`,
  });
}

/** The tenant's providers as buttons of one form (each starts the sign-in at that provider). */
export function providersPage(
  c: PortalContext,
  tenant: SignInTenant,
  providers: UpstreamProvider[],
  pickAnother: boolean,
): string {
  const buttons = providers.map(
    (p) =>
      html`<li><button type="submit" name="provider" value="${p.id}" class="provider"><img src="/signin/providers/${p.id}/button.svg" alt="" width="240" height="48"><span class="label">Sign in with ${p.label}</span></button></li>`,
  );
  const form = html`<form method="post" action="/signin/interaction/${c.uid}/start">
${csrfField(c)}<input type="hidden" name="tenant" value="${tenant.id}">
<ul class="providers" aria-label="Ways to sign in">${buttons}</ul>
</form>`;
  return page({
    title: `${heading(c)}: ${tenant.name}`,
    brand: c.brand,
    body: html`<h1>${heading(c)}</h1>
<p>Sign in to <strong>${c.appName}</strong> at <strong>${tenant.name}</strong>.</p>
${providers.length ? form : html`<p role="alert" class="error">${tenant.name} has no sign-in method set up yet.</p>`}
${pickAnother ? html`<p><a href="/signin/interaction/${c.uid}?pick=1">Not your school? Choose another.</a></p>` : ''}
${abortForm(c, `Cancel and go back to ${c.appName}`)}`,
  });
}

/**
 * A refusal or failure the person can understand, with the way back to the app when there is one;
 * `startOver` replaces the default hint (a launch from a learning platform starts over there).
 */
export function problemPage(o: {
  title: string;
  message: string;
  back?: PortalContext;
  appName?: string;
  brand?: PageBrand;
  startOver?: string;
}): string {
  return page({
    title: o.title,
    brand: o.brand,
    body: html`<h1>${o.title}</h1>
<p class="error" role="alert">${o.message}</p>
${o.back ? abortForm(o.back, `Go back to ${o.appName ?? o.back.appName}`) : html`<p>${o.startOver ?? 'Go back to the app you came from and start again.'}</p>`}`,
  });
}
