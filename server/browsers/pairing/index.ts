/** Pairing codes by which a person's browser joins a team as a donated browser. */
export { createPairingService } from './create-pairing-service';
export type { PairingService } from './create-pairing-service';
