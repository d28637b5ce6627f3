import type { SignInTenant } from '../sign-in.repository';
import type { PageBrand } from '../ui/brand/brand-store';
import { html, page } from '../ui/html';
import type { AppTile } from './school-apps';

/** The first letter of the app's name, the tile's only picture (apps have no logo in the model). */
const initial = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

/** A school's apps as tiles, each a link that starts the sign-in to the app; nothing about the reader. */
export function schoolAppsPage(tenant: SignInTenant, tiles: AppTile[], brand?: PageBrand): string {
  const list = html`<ul class="apps" aria-label="Apps at ${tenant.name}">${tiles.map(
    (t) =>
      html`<li><a class="provider app-tile" href="${t.href}" data-app="${t.id}"><span class="app-initial" aria-hidden="true">${initial(t.name)}</span><span class="label">${t.name}</span></a></li>`,
  )}</ul>`;
  return page({
    title: `${brand?.portalName ?? 'Sign in'}: apps at ${tenant.name}`,
    brand,
    body: html`<h1>Apps at ${tenant.name}</h1>
<p>Choose an app to sign in to it with your school account.</p>
${tiles.length ? list : html`<p role="status">${tenant.name} has no apps to show here yet.</p>`}`,
  });
}
