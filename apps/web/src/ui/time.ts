/**
 * A time as the app shows it, in the browser's time zone: "Nov 24, 2026, 4:15 AM", the form of
 * `Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" })` (the app speaks
 * English). Written out rather than asked of Intl: the first Intl formatter of a page makes the
 * browser load its locale data, on the first screen's critical path (docs/web.md).
 */
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

export const formatTime = (iso: string): string => {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const hours = date.getHours()
  const minutes = String(date.getMinutes()).padStart(2, "0")
  return `${months[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}, ${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`
}
