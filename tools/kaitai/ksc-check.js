// Compile .ksy files with the JavaScript build of the Kaitai Struct compiler (npm packages
// kaitai-struct-compiler and js-yaml; see README.md): exit 0 when it compiles, 1 with the
// compiler's message when it does not, 3 when the packages are not installed.
const fs = require("fs");
let yaml, compiler;
try {
  yaml = require("js-yaml");
  compiler = require("kaitai-struct-compiler");
} catch (e) {
  console.error("not installed: " + e.message.split("\n")[0]);
  process.exit(3);
}
// every file named, in order; the first that does not compile is named and ends the run
(async () => {
  for (const file of process.argv.slice(2)) {
    const spec = yaml.load(fs.readFileSync(file, "utf8"));
    try {
      const files = await compiler.compile("python", spec, null, false);
      console.log(Object.keys(files).join("\n"));
    } catch (err) {
      console.error(file + ": " + String(err));
      process.exit(1);
    }
  }
})();
