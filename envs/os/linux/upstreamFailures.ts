/**
 * Test-set tasks whose own example does not solve them in the Linux backend, each for a reason
 * upstream's container shares (envs/os/README.md, Upstream, "Measured on a real Linux": a Debian 12
 * root with the Dockerfiles' packages, a fresh copy per task, no network). `npm run test:linux`
 * expects these to fail (those reading live figures may pass, when both runs agree) and prints
 * them; any other failure fails it. README lists them.
 */
export const LINUX_UPSTREAM_FAILURES: Readonly<Record<string, string>> = {
  'os-test-6-new-08':
    "the init's `apt remove sudo` asks for confirmation and aborts without a terminal, and the example's `apt update && apt install sudo` needs the network (upstream runs offline too)",
  'os-test-7-bootstrap-00':
    'the example counts live processes (`ps -A | wc -l`): the check runs it again in another shell, which sees other processes; upstream\'s default image has no `ps` at all',
  'os-test-7-bootstrap-04':
    "the init's `sudo -u temp_student sleep 1000 &` jobs end with the init's shell, so the example counts 0 and the check's run differs; upstream's default image has no `ps`",
  'os-test-7-bootstrap-06':
    "the example's used-memory percentage (`free -m`) is read live: the check's run may see another figure (it passes when both runs agree); upstream's default image has no `free`",
  'os-test-7-bootstrap-08': "the init's `export TARGET_DIR=…` does not carry into the agent's shell (upstream runs init scripts in a shell of their own), so the example counts the wrong place",
  'os-test-7-bootstrap-18': "the example sums live `ps` and `free` figures, which change between the agent's run and the check's; upstream's default image has neither command",
  'os-test-7-bootstrap-22':
    "the example's `find … -type f -maxdepth 1` prints a warning in the agent's terminal but not in the check's run, so the agent's output is not the check's integer (as upstream)",
  'os-test-7-bootstrap-29':
    "the init's `cd problem_directory` does not carry into the agent's shell, so the example counts from `/`, including /proc, which changes between the agent's run and the check's",
  'os-test-7-bootstrap-75': "the example counts live processes (`ps -e`) and logged-in users: the check's run sees other processes; upstream's default image has no `ps`",
};
