import type { Config } from '../../config.js';
import { sealerOf, secretFromFile, type Sealer } from '../../lib/sealing.js';

const sealers = new WeakMap<Config, Sealer>();

/** The sealer of the server secret (SECRET_KEY, else the key file), made once per configuration. */
export function sealerFor(config: Config): Sealer {
  let sealer = sealers.get(config);
  if (!sealer) {
    sealer = sealerOf(config.secretKey ?? secretFromFile(config.secretKeyFile));
    sealers.set(config, sealer);
  }
  return sealer;
}
