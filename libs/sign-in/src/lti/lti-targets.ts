import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** An app a launch may lead to: deployed at the school, signing people in with OpenID Connect. */
export interface LaunchTarget {
  appIds: string[];
  url: string;
}

/**
 * Which app a launch names: its `target_link_uri` must be on the origin (scheme, host, port) of a
 * redirect URI registered by an app deployed at the school. The person is sent there and nowhere
 * else, so a launch is never an open redirect.
 */
@Injectable()
export class LtiTargets {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async resolve(tenantId: string, targetLinkUri: unknown): Promise<LaunchTarget | undefined> {
    const origin = originOf(targetLinkUri);
    if (!origin) return undefined;
    const rows: { id: string; redirect_uris: string[] | null }[] = await this.ds.query(
      `SELECT a.id, a.oauth2 -> 'redirect_uris' AS redirect_uris FROM apps a JOIN tenant_app_deployments d ON d.app_id = a.id
       WHERE d.tenant_id = $1 AND a.auth_type = 'oauth2' ORDER BY a.id`,
      [tenantId],
    );
    const appIds = rows.filter((r) => (r.redirect_uris ?? []).some((u) => originOf(u) === origin)).map((r) => r.id);
    return appIds.length ? { appIds, url: String(targetLinkUri) } : undefined;
  }
}

function originOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 2048) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
