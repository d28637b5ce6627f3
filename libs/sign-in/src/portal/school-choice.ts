import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RefusalReason } from '../log/refusal-reason';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInRepository, type SignInTenant } from '../sign-in.repository';
import { problem, stringParam, type Interaction, type Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';

/** The school a sign-in is for, and whether it is fixed (a vanity domain, a `tenant` parameter). */
export interface ChosenSchool {
  tenant?: SignInTenant;
  fixed: boolean;
}

/** Which school a sign-in is for, from the address, the form, the app's parameters; and the search for one. */
@Injectable()
export class SchoolChoice {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly repo: SignInRepository,
    private readonly refusals: RefuseSignIn,
  ) {}

  /**
   * The school of this sign-in: a vanity domain fixes it (or limits it to the domain's tenants);
   * else the `tenant` parameter, then a `login_hint` naming a tenant id. The app must be deployed there.
   */
  async resolve(req: Request, it: Interaction, chosen: string | undefined): Promise<ChosenSchool | Step> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    const candidate =
      chosen ??
      stringParam(it.params.tenant) ??
      stringParam(it.params.login_hint) ??
      (domainTenants?.length === 1 ? domainTenants[0] : undefined);
    if (!candidate) return { fixed: false };
    const tenant = await this.repo.tenant(candidate);
    if (domainTenants && (!tenant || !domainTenants.includes(tenant.id))) {
      const message = 'This sign-in page belongs to another school. Use your own school’s sign-in page.';
      return this.refusals.refuse(
        problem(400, 'Wrong sign-in page', message, RefusalReason.OtherTenantDomain, it.app),
        { it },
      );
    }
    if (!tenant)
      return chosen || stringParam(it.params.tenant)
        ? this.refusals.refuse(
            problem(400, 'Unknown school', 'That school is not known here.', RefusalReason.UnknownTenant, it.app),
            { it },
          )
        : { fixed: false };
    if (!(await this.repo.isDeployed(it.app.id, tenant.id))) {
      const message = `${it.app.name} is not available at ${tenant.name}. Ask your school to add it.`;
      return this.refusals.refuse(
        problem(403, 'App not available at this school', message, RefusalReason.AppNotDeployed, it.app),
        { it, tenantId: tenant.id },
      );
    }
    // A domain serving several schools lets the person choose another of them.
    return { tenant, fixed: domainTenants?.length === 1 || Boolean(stringParam(it.params.tenant)) };
  }

  /** Schools matching `q` where the app is deployed; on a vanity domain, only the domain's (others would be refused). */
  async search(req: Request, it: Interaction, q: string): Promise<SignInTenant[]> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    if (!domainTenants) return this.repo.searchTenants(it.app.id, q);
    return (await this.repo.searchTenants(it.app.id, q, 200)).filter((t) => domainTenants.includes(t.id)).slice(0, 20);
  }

  /** The issuer's own host or a registered vanity domain: the only places a person is sent back to. */
  async isPortalHost(req: Request): Promise<boolean> {
    return (
      req.hostname === new URL(this.host.issuer).hostname ||
      (await this.repo.vanityDomainTenants(req.hostname)) !== null
    );
  }
}
