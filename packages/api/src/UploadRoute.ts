/**
 * The file upload route in the OpenAPI document. It streams a request body of up to
 * `QUIRE_MAX_UPLOAD_BYTES` to the file store, which the contract's JSON endpoints cannot, so the
 * server serves it beside them (apps/server FileUploadRoute.ts); it is described here so that
 * clients generated from the document, and readers of `/docs`, find it.
 */
import { envelope } from "./GatewayResponses.ts"

type Spec = Record<string, any>

const filesPath = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}"
const uploadPath = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/files"

const pathParameters = [
  { name: "spaceId", in: "path", required: true, schema: { type: "string" } },
  { name: "changeRequestId", in: "path", required: true, schema: { type: "string" }, description: "The change request's id, or its number in the space" }
]

const errors = (codes: ReadonlyArray<number>) =>
  Object.fromEntries(codes.map((code) => [String(code), { description: "Refused", content: { "application/json": { schema: envelope(code) } } }]))

/** Adds `uploadFileInChangeRequest` and `getFileUploadLimit` (Quire's extensions) to an OpenAPI document. */
export const withUploadRoute = (spec: Spec): Spec => {
  const fileRead = spec["paths"]?.[filesPath]?.["get"]
  const file = fileRead?.["responses"]?.["200"]?.["content"]?.["application/json"]?.["schema"] ?? { type: "object" }
  const tags = fileRead?.["tags"] ?? []
  const upload = {
    post: {
      operationId: "uploadFileInChangeRequest",
      tags,
      security: [{ bearer: [] }],
      summary: "Upload a file into a change request",
      description:
        "Quire's extension: one file's raw bytes as the request body (its type in `Content-Type`), streamed to the file store and added to the change request as `insert_files` would, up to the server's limit (`QUIRE_MAX_UPLOAD_BYTES`, 100 MB by default; `getFileUploadLimit` answers it). A larger body is refused with a 413 naming the limit, before it is read when its `Content-Length` says so. The organization's storage quota applies (403). Needs edit permission.",
      parameters: [
        ...pathParameters,
        { name: "name", in: "query", required: true, schema: { type: "string", minLength: 1, maxLength: 255 }, description: "The file's name" }
      ],
      requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } }, "*/*": { schema: { type: "string", format: "binary" } } } },
      responses: {
        "201": {
          description: "The file, stored in the change request",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  object: { type: "string", enum: ["upload"] },
                  file,
                  changeRequest: {
                    type: "object",
                    properties: { id: { type: "string" }, number: { type: "number" }, revision: { type: "string" } },
                    required: ["id", "number", "revision"]
                  }
                },
                required: ["object", "file", "changeRequest"]
              }
            }
          }
        },
        ...errors([400, 401, 403, 404, 413])
      }
    }
  }
  const limit = {
    get: {
      operationId: "getFileUploadLimit",
      tags,
      security: [{ bearer: [] }],
      summary: "The largest file an upload takes",
      description: "Quire's extension: the bytes `uploadFileInChangeRequest` takes at most, so that a client refuses a larger file before it sends a byte.",
      parameters: pathParameters,
      responses: {
        "200": {
          description: "The limit",
          content: { "application/json": { schema: { type: "object", properties: { maxBytes: { type: "integer", minimum: 0 } }, required: ["maxBytes"] } } }
        },
        ...errors([401])
      }
    }
  }
  return withImportUpload({ ...spec, paths: { ...spec["paths"], [uploadPath]: upload, [`${uploadPath}/limit`]: limit } })
}

const importUploadPath = "/v1/org/{organizationId}/imports/files"

/** `uploadImportFile` (Quire's extension): a file kept for `startImportRun`'s `source.files`. */
const withImportUpload = (spec: Spec): Spec => {
  const tags = spec["paths"]?.["/v1/org/{organizationId}/imports"]?.["post"]?.["tags"] ?? []
  const upload = {
    post: {
      operationId: "uploadImportFile",
      tags,
      security: [{ bearer: [] }],
      summary: "Upload a file to import",
      description:
        "Quire's extension: one file's raw bytes as the request body (a `.docx`, a `.zip` of a Confluence or Notion export or of markdown or HTML files, or one `.md` or `.html` file), kept for `startImportRun`, whose `source.files` names it by the `key` answered here. Up to the server's upload limit (`QUIRE_MAX_UPLOAD_BYTES`); a larger body is a 413. Needs the edit role in the organization.",
      parameters: [
        { name: "organizationId", in: "path", required: true, schema: { type: "string" } },
        { name: "name", in: "query", required: true, schema: { type: "string", minLength: 1, maxLength: 255 }, description: "The file's name" }
      ],
      requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } }, "*/*": { schema: { type: "string", format: "binary" } } } },
      responses: {
        "201": {
          description: "The file, kept for an import",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  object: { type: "string", enum: ["import-file"] },
                  key: { type: "string" },
                  name: { type: "string" },
                  contentType: { type: "string" },
                  size: { type: "integer", minimum: 1 }
                },
                required: ["object", "key", "name", "contentType", "size"]
              }
            }
          }
        },
        ...errors([400, 401, 403, 404, 413])
      }
    }
  }
  return { ...spec, paths: { ...spec["paths"], [importUploadPath]: upload } }
}
