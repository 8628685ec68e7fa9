// Swagger UI's prebuilt files, imported as text (`with { type: "text" }`): esbuild inlines them into the
// docs function's bundle, and the local gateway's module hooks read them (infra/local/text-imports.mjs).
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}
