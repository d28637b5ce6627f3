import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OidcProviderHost } from '../oidc/oidc-provider.host';

/** One app on a school's app page: where its tile goes. */
export interface AppTile {
  id: string;
  name: string;
  /** The app's sign_on_url (the app starts the sign-in), else the school's IdP-initiated start. */
  href: string;
  startedBy: 'app' | 'school';
}

/**
 * The apps a school's page lists: the `saml` apps deployed at the school. `oauth2` apps have no
 * login-initiation URL in the app model, so a tile could not start their sign-in: they are not listed.
 */
@Injectable()
export class SchoolApps {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly host: OidcProviderHost,
  ) {}

  async tiles(tenantId: string): Promise<AppTile[]> {
    const rows: { id: string; name: string; signOnUrl: string | null }[] = await this.ds.query(
      `SELECT a.id, a.name, a.saml->>'sign_on_url' AS "signOnUrl" FROM apps a JOIN tenant_app_deployments d ON d.app_id = a.id
       WHERE d.tenant_id = $1 AND a.auth_type = 'saml' ORDER BY lower(a.name), a.id`,
      [tenantId],
    );
    return rows.map((r) => {
      const signOn = webUrl(r.signOnUrl);
      // The start runs on the issuer's host (the SAML endpoints are not served on vanity domains).
      return signOn
        ? { id: r.id, name: r.name, href: signOn, startedBy: 'app' }
        : {
            id: r.id,
            name: r.name,
            href: `${this.host.issuer}/saml/${encodeURIComponent(tenantId)}/apps/${encodeURIComponent(r.id)}/start`,
            startedBy: 'school',
          };
    });
  }
}

/** An http(s) URL, or undefined (empty, malformed, or another scheme such as javascript:). */
function webUrl(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
