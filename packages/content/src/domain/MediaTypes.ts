/** The media type of a file from its name, as imports and uploads label the files they store. Pure: the CLI loads it too. */

const contentTypes: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  pdf: "application/pdf",
  json: "application/json",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  yaml: "application/yaml",
  yml: "application/yaml",
  zip: "application/zip",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg"
}

/** The content type of a file named `name`, by its extension. */
export const contentTypeOf = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot < 0 ? "application/octet-stream" : contentTypes[name.slice(dot + 1).toLowerCase()] ?? "application/octet-stream"
}
