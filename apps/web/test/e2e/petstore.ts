/** A small OpenAPI document for the browser tests that upload a spec: GET /pets (with a `limit` parameter) and POST /pets. */
export const petstore = `openapi: 3.0.3
info:
  title: Petstore
  version: "1.0"
paths:
  /pets:
    get:
      summary: List the pets
      parameters:
        - name: limit
          in: query
          schema: { type: integer }
      responses:
        "200":
          description: The pets
    post:
      summary: Add a pet
      responses:
        "201":
          description: Added
`
