/** Whether `Accept-Encoding` takes `coding`: named (or `*`) without `q=0`. */
export const acceptsCoding = (acceptEncoding: string | undefined, coding: "gzip" | "br") =>
  (acceptEncoding ?? "").split(",").some((entry) => {
    const [named = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase())
    const refused = parameters.some((parameter) => /^q=0(?:\.0{0,3})?$/u.test(parameter))
    return (named === coding || named === "*") && !refused
  })
