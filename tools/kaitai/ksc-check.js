// Compile a .ksy with the JavaScript build of the Kaitai Struct compiler (npm packages
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
const spec = yaml.load(fs.readFileSync(process.argv[2], "utf8"));
compiler.compile("python", spec, null, false).then(
  (files) => console.log(Object.keys(files).join("\n")),
  (err) => {
    console.error(String(err));
    process.exit(1);
  }
);
