/** The published site's stylesheet of page bodies (`.markdown`), served by the server at /app/render.css: linked once. */
export const linkRenderStylesheet = () => {
  if (typeof document === "undefined" || document.querySelector("link[data-render-css]") !== null) return
  const link = document.createElement("link")
  link.rel = "stylesheet"
  link.href = "/app/render.css"
  link.dataset["renderCss"] = ""
  document.head.append(link)
}
