/** Password, two-factor codes and sessions: filled in once the sign-in routes exist in the document. */
export function AccountSecurity() {
  return null;
}
