import { encode } from "uqr"

/** A QR code drawn as one SVG path, with the quiet zone readers need around it. */
export const QrCode = (props: { readonly text: string; readonly label: string }) => {
  const { data, size } = encode(props.text, { ecc: "M", border: 4 })
  const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ""))).join("")
  return (
    <svg
      class="qr"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size} ${size}`}
      width="220"
      height="220"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
