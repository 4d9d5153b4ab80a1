/**
 * A practical email check: one @, a local part without spaces, a domain of dot-separated labels.
 * Deliverability is proven by the invitation mail, not by a pattern.
 */
const EMAIL = /^[^\s@"(),:;<>[\\\]]{1,64}@(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** The form an email is stored and compared in: trimmed, lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const isEmail = (text: string): boolean => text.length <= 254 && EMAIL.test(text.trim());

/** The domain of an email address (what follows its last @), lower case. */
export function emailDomainOf(email: string): string {
  const normalized = normalizeEmail(email);
  return normalized.slice(normalized.lastIndexOf('@') + 1);
}

/** Whether the text is a domain an email address can have (as isEmail checks it). */
export const isEmailDomain = (text: string): boolean => isEmail(`x@${text}`);
