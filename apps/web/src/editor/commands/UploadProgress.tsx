/** An upload under way: its name, a progress bar with what is sent of how much, and Cancel (the File block draws the same in DOM). */
import { describeSize } from "../uploads.ts"

export interface UploadProgressProps {
  readonly name: string
  readonly loaded: number
  readonly total: number
  readonly onCancel: () => void
}

export const UploadProgress = ({ name, loaded, total, onCancel }: UploadProgressProps) => (
  <div className="quire-upload-progress" role="status">
    <span>Uploading “{name}”: {describeSize(loaded)} of {describeSize(total)}</span>
    <progress max={Math.max(1, total)} value={Math.min(loaded, total)} aria-label={`Upload of ${name}`} />
    <button type="button" onClick={onCancel}>Cancel</button>
  </div>
)
