import { build, newApp } from "./test/infra/support.js";
const app = newApp();
const b = build({}, { validate: false, app });
for (const [id, r] of b.ofType("Custom::ConsoleAppClient")) console.log(id, JSON.stringify(r.Properties, null, 1));
for (const [id, r] of b.ofType("AWS::Cognito::UserPoolClient")) console.log("CLIENT", id);
console.log(Object.keys(b.template.toJSON().Resources).length, b.nested.map(n=>[n.id, Object.keys(n.resources).length]));
console.log(JSON.stringify(b.template.toJSON()).includes("SupportedIdentityProviders"));
