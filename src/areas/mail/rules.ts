/** What a message's body becomes once the secret it carried has expired or been used. */
export const EXPIRED_BODY = 'This message carried a one-time link. The link has been used or has expired, so its text is no longer kept.\n';

/** A subject is one header line: no line breaks, bounded. */
export const subjectLine = (subject: string): string => subject.replace(/\s+/g, ' ').trim().slice(0, 250);
