/** One line beside an action the deployment cannot do, saying what would make it possible. */
export const Unavailable = ({ why }: { readonly why: string | undefined }) =>
  why === undefined ? null : (
    <p class="unavailable" role="note">
      {why}
    </p>
  )
