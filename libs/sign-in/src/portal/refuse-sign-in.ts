import { Injectable } from '@nestjs/common';
import type { Refusal } from '../accounts/identity-mapper';
import { RefusalReason } from '../log/refusal-reason';
import { SignInOutcomes } from '../log/sign-in-outcomes';
import type { SignInApp, SignInTenant } from '../sign-in.repository';
import { UpstreamError } from '../upstream/upstream-client';
import type { UpstreamProvider } from '../upstream/upstream-provider';
import { problem, type Interaction, type Step } from './portal-steps';

/** Where a refusal happened, as far as it is known. */
export interface RefusedAt {
  readonly it?: Interaction;
  readonly tenantId?: string;
  readonly providerId?: string;
  /** The person, when one was found. */
  readonly userId?: string;
  /** For the service log only. */
  readonly detail?: string;
}

const REFUSAL_PAGES: Record<Refusal, { title: string; message: (t: SignInTenant, p: UpstreamProvider) => string }> = {
  [RefusalReason.NotEnrolled]: {
    title: 'Not enrolled at this school',
    message: (t, p) =>
      `The ${p.label} account you used is not enrolled at ${t.name}. Sign in with your school account, or ask your school to add you.`,
  },
  [RefusalReason.ProviderNotAllowed]: {
    title: 'Use another way to sign in',
    message: (t, p) => `${t.name} does not let your group sign in with ${p.label}. Choose another way to sign in.`,
  },
};

/** The portal's refusals: each is recorded once (`SignInOutcomes`) and shown as a page. */
@Injectable()
export class RefuseSignIn {
  constructor(private readonly outcomes: SignInOutcomes) {}

  async refuse(step: Step, at: RefusedAt): Promise<Step> {
    if (step.kind !== 'problem') return step;
    const { it, tenantId, providerId, userId, detail } = at;
    await this.outcomes.refused({
      protocol: 'oidc',
      reason: step.reason,
      tenantId,
      appId: it?.app.id,
      providerId,
      userId,
      detail,
    });
    return step;
  }

  /** The person is not one the school lets sign in this way. */
  person(it: Interaction, tenant: SignInTenant, p: UpstreamProvider, refused: Refusal): Promise<Step> {
    const page = REFUSAL_PAGES[refused];
    const step = problem(403, page.title, page.message(tenant, p), refused, it.app);
    return this.refuse(step, { it, tenantId: tenant.id, providerId: p.id });
  }

  /** The school does not share the person with the app (data sharing): the page says so without naming what is shared. */
  notShared(it: Interaction, tenant: SignInTenant | null, at: RefusedAt): Promise<Step> {
    return this.refuse(notSharedPage(tenant, it.app), at);
  }

  /** A provider that failed or answered wrongly: a page naming it, the cause in the log only. */
  upstreamFailed(it: Interaction, tenantId: string, p: UpstreamProvider, err: unknown): Promise<Step> {
    if (!(err instanceof UpstreamError)) throw err;
    const step = problem(
      502,
      'Sign-in failed',
      `${err.message}. Go back to the app and try again.`,
      RefusalReason.UpstreamError,
      it.app,
    );
    return this.refuse(step, { it, tenantId, providerId: p.id, detail: err.detail });
  }
}

const notSharedPage = (tenant: SignInTenant | null, app: SignInApp): Step =>
  problem(
    403,
    'Not shared with this app',
    `${tenant?.name ?? 'Your school'} does not share your information with ${app.name}, so you cannot sign in to it. Ask your school if you need to use it.`,
    RefusalReason.NotShared,
    app,
  );
