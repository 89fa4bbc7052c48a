/** Encryption at rest and secret hashing. */
export {
  DEFAULT_KID,
  ENCRYPTION_KEY_ENV,
  KEY_FILE_NAME,
  Keyring,
  KeyringError,
  generateKeySpec,
  loadKeyring,
  parseKeyring,
  type KeyringKey,
  type LoadKeyringOptions,
  type LoadedKeyring,
} from './keyring.js';
export { SecretBox, SecretDecryptError, secretAad } from './secret-box.js';
export { hashSecret, sha256Hex, verifySecret } from './secret-hash.js';
