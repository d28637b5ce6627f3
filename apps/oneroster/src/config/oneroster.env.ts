import { ResourceServerEnv } from '@edu/config';

/** Configuration of the OneRoster rostering service (validated at boot). */
export class OnerosterEnv extends ResourceServerEnv {
  override PORT = 3001;
}
