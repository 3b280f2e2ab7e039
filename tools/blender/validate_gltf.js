// Validate glTF/GLB files with the Khronos glTF validator (npm gltf-validator):
//   NODE_PATH=DIR/node_modules node validate_gltf.js FILE...
// One summary line per file and every issue; exits 1 when any file has an error or a
// warning (infos and hints are printed, not failed: e.g. the skin of a clip without meshes
// is reported as possibly unused).
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
let bad = 0;
(async () => {
  for (const file of process.argv.slice(2)) {
    const data = new Uint8Array(fs.readFileSync(file));
    const dir = path.dirname(file);
    const report = await validator.validateBytes(data, {
      uri: path.basename(file),
      maxIssues: 200,
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          try { resolve(new Uint8Array(fs.readFileSync(path.join(dir, decodeURIComponent(uri))))); }
          catch (e) { reject(e.toString()); }
        }),
    });
    const i = report.issues;
    console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    for (const m of i.messages) console.log(`  ${['error','warning','info','hint'][m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (i.numErrors || i.numWarnings) bad++;
  }
  const n = process.argv.length - 2;
  console.log(`gltf validator: ${n - bad} passed, ${bad} failed`);
  process.exit(bad ? 1 : 0);
})();
