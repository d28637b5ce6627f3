import type { SignInTenant } from '../sign-in.repository';
import type { UpstreamProvider } from '../upstream/upstream-providers';
import { html, page, type Raw } from './html';

export interface PortalContext {
  uid: string;
  appName: string;
  brandCss?: string;
  portalName?: string;
}

const heading = (c: PortalContext) => c.portalName ?? 'Sign in';

/** Choose a school: a search by name (GET, nothing changes), then links to each match. */
export function schoolPickPage(c: PortalContext, query: string, results: SignInTenant[] | undefined): string {
  const list: Raw | string = results
    ? results.length
      ? html`<h2 id="results-title">Schools matching “${query}”</h2>
<ul class="schools" aria-labelledby="results-title">${results.map((t) => html`<li><a href="/signin/interaction/${c.uid}?tenant=${t.id}">${t.name}</a></li>`)}</ul>`
      : html`<p role="status">No school using ${c.appName} matches “${query}”.</p>`
    : '';
  return page({
    title: `${heading(c)}: choose your school`,
    brandCss: c.brandCss,
    body: html`<h1>${heading(c)}</h1>
<p>Sign in to <strong>${c.appName}</strong> with your school account.</p>
<form method="get" action="/signin/interaction/${c.uid}" role="search">
<label for="q">Find your school</label>
<input id="q" name="q" type="search" value="${query}" required minlength="2" maxlength="100" autocomplete="organization">
<button type="submit" class="primary">Search</button>
</form>
${list}`,
  });
}

/** The tenant's providers as links (each starts the sign-in at that provider). */
export function providersPage(c: PortalContext, tenant: SignInTenant, providers: UpstreamProvider[], pickAnother: boolean): string {
  const buttons = providers.map(
    (p) =>
      html`<li><a class="provider" href="/signin/interaction/${c.uid}/start?tenant=${tenant.id}&amp;provider=${p.id}"><img src="/signin/providers/${p.id}/button.svg" alt="" width="240" height="48"><span class="label">Sign in with ${p.label}</span></a></li>`,
  );
  return page({
    title: `${heading(c)}: ${tenant.name}`,
    brandCss: c.brandCss,
    body: html`<h1>${heading(c)}</h1>
<p>Sign in to <strong>${c.appName}</strong> at <strong>${tenant.name}</strong>.</p>
${providers.length ? html`<ul class="providers" aria-label="Ways to sign in">${buttons}</ul>` : html`<p role="alert" class="error">${tenant.name} has no sign-in method set up yet.</p>`}
${pickAnother ? html`<p><a href="/signin/interaction/${c.uid}?pick=1">Not your school? Choose another.</a></p>` : ''}
<p><a href="/signin/interaction/${c.uid}/abort">Cancel and go back to ${c.appName}</a></p>`,
  });
}

/** A refusal or failure the person can understand, with the way back to the app when there is one. */
export function problemPage(o: { title: string; message: string; uid?: string; appName?: string; brandCss?: string }): string {
  return page({
    title: o.title,
    brandCss: o.brandCss,
    body: html`<h1>${o.title}</h1>
<p class="error" role="alert">${o.message}</p>
${o.uid ? html`<p><a href="/signin/interaction/${o.uid}/abort">Go back to ${o.appName ?? 'the app'}</a></p>` : html`<p>Go back to the app you came from and start again.</p>`}`,
  });
}
