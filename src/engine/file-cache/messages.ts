/** The spec's error messages (section 7), verbatim. One place so tests and code agree. */
export const MSG = {
  getWithBody: 'GET request cannot have a body in File System API mode',
  headWithBody: 'HEAD request cannot have a body in File System API mode',
  deleteWithBody: 'DELETE request cannot have a body',
  postMultipleFiles: 'POST request with multiple file is not allowed',
  postFileAndBody: 'POST request with file and body is not allowed',
  postNotJson: 'POST request for not json file is not allowed',
  noData: 'No data provided',
  putMultipleFiles: 'PUT request with multiple file is not allowed',
  patchNotJson: 'Only json file can be processing with PATCH http method',
  patchNotFound: 'Resource to update not found',
  deleteNotFound: 'Resource to delete not found',
  partialDeleteNotFound: 'Partial resource to delete not found',
  optionsNotAllowed: 'Method OPTIONS not allowed in File System API mode',
  patchUnsupported: 'PATCH request content-type unsupported',
  putNoContentType: 'PUT request requires a Content-Type header',
  alreadyExists: (urlPath: string) => `File at ${urlPath} already exists`,
  parentIsFile: (urlPath: string) => `Cannot write ${urlPath}: a parent path is a file`,
  folderExists: (urlPath: string) => `Cannot replace a folder: ${urlPath}`,
} as const;

/** The option that turns a folder of JSON arrays into a REST API. */
export const PRESET_HINT =
  "this file is a JSON array: to serve its items at <path>/<id>, append with POST and read json-server's query syntax, set preset: 'json-server' in the mock options (CLI: --preset json-server)";
