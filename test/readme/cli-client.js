// `npm run --silent admin|device-sim -- …` inside the README examples test: the arguments as bash parsed them
// go to the test process, which runs the same command (runAdmin / runDeviceSim) against the same runtime and
// hands back what it printed and its exit code. The same command, without starting tsx for every line.
const [tool, ...argv] = process.argv.slice(2);
const res = await globalThis.fetch(process.env.README_CLI_URL, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tool, argv }) });
const { code, stdout, stderr } = await res.json();
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code;
