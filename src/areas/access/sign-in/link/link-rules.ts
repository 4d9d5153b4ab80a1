/** Unused sign-in and reset links a user is mailed in an hour, and workspace lists an address is (docs/rules.md §7 Links). */
export const LINK_MAILS_PER_ADDRESS_HOUR = 5;
