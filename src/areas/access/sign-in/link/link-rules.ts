/** Sign-in and reset links a user may hold that still work, and workspace lists an address is mailed in an hour (docs/rules.md §7 Links). */
export const LINK_MAILS_PER_ADDRESS_HOUR = 5;
