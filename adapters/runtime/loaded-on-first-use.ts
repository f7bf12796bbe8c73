/**
 * The module `load` imports, imported on the first call and shared by every call after: a package
 * that holds megabytes once loaded (SAML's XML stack, WebAuthn's ASN.1 one) costs nothing in a
 * process that never signs anyone in with it.
 */
export const loadedOnFirstUse = <M>(load: () => Promise<M>): (() => Promise<M>) => {
  let loading: Promise<M> | undefined
  return () => {
    loading ??= load()
    return loading
  }
}
