import { RefusalReason } from '../log/refusal-reason';

/** Why a launch was refused: the sign-in log's reason, the page's status, title and message. */
export class LtiRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly status: number,
    readonly title: string,
    message: string,
    /** What went wrong in detail, for the service log only (never shown). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

const GO_BACK = 'Go back to your learning platform and open the activity again.';

export const refusals = {
  unknownProvider: () =>
    new LtiRefusal(
      RefusalReason.LtiUnknownProvider,
      404,
      'Unknown learning platform',
      `This launch address is not set up for any school. Ask your school to check the tool's settings in the learning platform.`,
    ),
  badRequest: (what: string) =>
    new LtiRefusal(
      RefusalReason.LtiBadRequest,
      400,
      'This launch is incomplete',
      `The learning platform did not send ${what}. ${GO_BACK}`,
    ),
  issuer: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiIssuerMismatch,
      403,
      'Launch from another platform',
      `This launch came from a learning platform your school has not connected here. Ask your school to check the platform's issuer.`,
      detail,
    ),
  client: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiClientMismatch,
      403,
      'Launch for another tool',
      `This launch was meant for another tool registration. Ask your school to check the platform's client id.`,
      detail,
    ),
  deployment: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiDeploymentMismatch,
      403,
      'Launch from another deployment',
      `This launch came from a deployment your school has not connected here. Ask your school to check the deployment id.`,
      detail,
    ),
  state: () =>
    new LtiRefusal(
      RefusalReason.LtiStateUnknown,
      400,
      'This launch has expired',
      `This launch is unknown, expired or was already used. ${GO_BACK}`,
    ),
  otherBrowser: () =>
    new LtiRefusal(
      RefusalReason.LtiStateMismatch,
      400,
      'This launch has expired',
      `This launch was started in another browser or window. ${GO_BACK}`,
    ),
  invalidToken: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiInvalidToken,
      403,
      'Launch not accepted',
      `The learning platform's launch could not be verified. ${GO_BACK}`,
      detail,
    ),
  replayed: () =>
    new LtiRefusal(
      RefusalReason.LtiNonceReplayed,
      403,
      'Launch already used',
      `This launch was already used. ${GO_BACK}`,
    ),
  keys: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiKeysUnavailable,
      502,
      'Learning platform not reachable',
      `The learning platform's keys cannot be read right now, so the launch cannot be verified. ${GO_BACK}`,
      detail,
    ),
  message: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiMessageNotSupported,
      400,
      'Launch not supported',
      `This kind of launch is not supported. Add the tool as a link to an activity in your learning platform.`,
      detail,
    ),
  platform: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiPlatformError,
      400,
      'The learning platform did not sign you in',
      'Sign in to your learning platform, then open the activity again.',
      detail,
    ),
  host: (detail: string) =>
    new LtiRefusal(
      RefusalReason.UnknownHost,
      400,
      'Unknown sign-in address',
      `This launch came to an address that is not a sign-in address of this service. Ask your school to check the tool's URLs.`,
      detail,
    ),
  target: (detail: string) =>
    new LtiRefusal(
      RefusalReason.LtiTargetNotAllowed,
      400,
      'Unknown app',
      `This launch names an app that is not available at your school. Ask your school to check the activity's link.`,
      detail,
    ),
};
