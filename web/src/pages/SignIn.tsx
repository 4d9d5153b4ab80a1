/** Sign-in: filled in once the sign-in routes exist in the document. */
export function SignInPage() {
  return (
    <section class="card narrow">
      <h1>Sign in</h1>
    </section>
  );
}
