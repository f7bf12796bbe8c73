import type { ComponentChildren } from "preact"
import { useEffect, useRef } from "preact/hooks"
import type { Me } from "../api.ts"

export interface NavItem {
  readonly path: string
  readonly title: string
}

/**
 * Every page's frame: a link past the navigation, who is signed in where, the pages the caller may
 * open, and, in open local mode, what that mode means. The heading takes the focus when the page
 * changes, so that keyboard and screen reader users start at the new page.
 */
export const Layout = (props: {
  readonly me: Me | undefined
  readonly nav: ReadonlyArray<NavItem>
  readonly current: string
  readonly title: string
  readonly onSignOut?: (() => void) | undefined
  readonly children: ComponentChildren
}) => {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${props.title} · Roster`
    heading.current?.focus()
  }, [props.title])
  const { me } = props
  return (
    <div class={props.nav.length === 0 ? "frame single" : "frame"}>
      <button type="button" class="skip" onClick={() => heading.current?.focus()}>
        Skip to the page
      </button>
      <header>
        <p class="brand">Roster</p>
        {me === undefined ? null : (
          <p class="who">
            {me.organization.name} ·{" "}
            {me.member === undefined
              ? me.principal === "open_local"
                ? "open local mode"
                : "operator"
              : me.member.username}
            {props.onSignOut === undefined ? null : (
              <button type="button" onClick={props.onSignOut}>
                Sign out
              </button>
            )}
          </p>
        )}
      </header>
      {props.nav.length === 0 ? null : (
        <nav aria-label="Console">
          <ul>
            {props.nav.map((item) => (
              <li key={item.path}>
                <a href={`#${item.path}`} aria-current={item.path === props.current ? "page" : undefined}>
                  {item.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="content">
        {me?.principal === "open_local" ? (
          <p class="open-mode" role="note">
            Open local mode: no sign-in is needed, and every request from this machine has full access. Set
            ROSTER_MASTER_KEY before anyone else can reach this service.
          </p>
        ) : null}
        <h1 ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.children}
      </main>
    </div>
  )
}
