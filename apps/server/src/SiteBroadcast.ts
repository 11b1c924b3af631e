/** Published sites across processes over LISTEN/NOTIFY: platform's `SiteBroadcast`, which workers run too. */
import { SiteBroadcast } from "@quire/platform"

export const { layer, sitesChannel } = SiteBroadcast
