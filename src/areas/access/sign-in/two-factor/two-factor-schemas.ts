import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../../../route-kit/schemas.js';

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean({ description: 'Whether sign-ins of this account ask for a code' }),
  pending: Type.Boolean({ description: 'An enrolment was started and waits for its confirming code' }),
  recoveryCodesLeft: Type.Integer({ minimum: 0, description: 'Unused recovery codes (0 while 2FA is off)' }),
  requiredByWorkspace: Type.Boolean({ description: 'This workspace requires 2FA of every person signing in' }),
});

export const TwoFactorEnrolment = Type.Object({
  secret: Type.String({ description: 'The TOTP secret in base32, shown this once' }),
  uri: Type.String({ description: 'The `otpauth://totp/…` URI an authenticator app imports' }),
  qrSvg: Type.String({ description: 'The URI as a QR code, an SVG document' }),
});

export const Code = Type.String({ pattern: '^[0-9]{6}$', maxLength: 6, description: 'The six digits the authenticator app shows' });

export const RecoveryCode = Type.String({ minLength: 1, maxLength: 40, description: 'One of the recovery codes (`xxxxx-xxxxx`, any case)' });

export const TwoFactorConfirm = Type.Object({ code: Code });

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'Ten single-use recovery codes, shown this once' }),
});

export const TwoFactorDisable = Type.Object({
  code: Type.Optional(Code),
  recoveryCode: Type.Optional(RecoveryCode),
});

export const TwoFactorVerify = Type.Object({
  challenge: Type.String({ minLength: 1, maxLength: 100, description: 'The challenge a sign-in answered (`ttc_…`)' }),
  code: Type.Optional(Code),
  recoveryCode: Type.Optional(RecoveryCode),
});

export const VerifiedSession = Type.Object({
  token: Type.String({ description: 'A session access token (`tts_…`), also set as the session cookie' }),
  expiresAt: Timestamp('When the session ends'),
});
