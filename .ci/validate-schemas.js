// Validates every schema `quarry schema --all` prints against the JSON Schema Draft 2020-12
// meta-schema (ajv's), and compiles each: node validate-schemas.js ALL_JSON
const Ajv2020 = require("ajv/dist/2020").default;
const all = require(require("path").resolve(process.argv[2]));
const ajv = new Ajv2020({ strict: false, validateSchema: true });
let bad = 0;
for (const [name, schema] of Object.entries(all)) {
  if (schema.$schema !== "https://json-schema.org/draft/2020-12/schema") {
    bad++;
    console.error(`${name}: $schema is ${schema.$schema}`);
    continue;
  }
  if (!ajv.validateSchema(schema)) {
    bad++;
    console.error(`${name}: ${JSON.stringify(ajv.errors)}`);
    continue;
  }
  try {
    ajv.compile(schema);
  } catch (e) {
    bad++;
    console.error(`${name}: ${e.message}`);
  }
}
console.log(`schemas: ${Object.keys(all).length} checked against Draft 2020-12, ${bad} invalid`);
process.exit(bad ? 1 : 0);
