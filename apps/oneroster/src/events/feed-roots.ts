import { V1P2_API } from '../common/oneroster-api';
import { OnerosterEnv, publicBaseUrl } from '../oneroster.env';
import type { HrefRoots } from '../query/roster-tables';

/** The OneRoster 1.2 service roots the feed's objects link to (their GUIDRef hrefs), pulled or pushed. */
export function feedRoots(env: OnerosterEnv): HrefRoots {
  const base = publicBaseUrl(env);
  return {
    rostering: `${base}/${V1P2_API.prefix.rostering}`,
    gradebook: `${base}/${V1P2_API.prefix.gradebook}`,
    resources: `${base}/${V1P2_API.prefix.resources}`,
  };
}
