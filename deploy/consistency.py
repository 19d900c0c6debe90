"""Cross-file checks for deploy/ that no schema can express.

Run by deploy/validate.sh with the repository root as working directory.
Prints every mismatch found and exits 1 if there is any.
"""

import pathlib
import re
import sys

import yaml

DEPLOY = pathlib.Path("deploy")
K8S = DEPLOY / "k8s"
GRPC_PORT = 50051
METRICS_PORT = 9090

problems = []


def check(ok, message):
    """Record `message` as a problem unless `ok`."""
    if not ok:
        problems.append(message)


def load(path):
    """The single YAML document in `path`."""
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def grace_ms(args, where):
    """The value of --shutdown-grace-ms in an argument list."""
    for arg in args or []:
        m = re.fullmatch(r"--shutdown-grace-ms=(\d+)", str(arg))
        if m:
            return int(m.group(1))
    problems.append(f"{where}: no --shutdown-grace-ms=N argument")
    return None


# Dockerfile: the ports the manifests rely on are exposed.
dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
exposed = set()
for m in re.finditer(r"^EXPOSE\s+(.+)$", dockerfile, re.M):
    exposed.update(int(p.split("/")[0]) for p in m.group(1).split())
check(exposed == {GRPC_PORT, METRICS_PORT}, f"Dockerfile EXPOSE {sorted(exposed)}")

# kustomization.yaml lists exactly the manifests in deploy/k8s.
kustomization = load(K8S / "kustomization.yaml")
listed = set(kustomization.get("resources", []))
present = {p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml"}
check(listed == present, f"kustomization resources {sorted(listed)} != files {sorted(present)}")

# Deployment: grace period, probes and ports agree.
deployment = load(K8S / "deployment.yaml")
labels = deployment["spec"]["template"]["metadata"]["labels"]
pod = deployment["spec"]["template"]["spec"]
(container,) = pod["containers"]
ports = {p["name"]: p["containerPort"] for p in container["ports"]}
check(ports == {"grpc": GRPC_PORT, "metrics": METRICS_PORT}, f"container ports {ports}")
for probe in ("readinessProbe", "livenessProbe"):
    port = container.get(probe, {}).get("grpc", {}).get("port")
    check(port == GRPC_PORT, f"{probe} is not a gRPC probe on {GRPC_PORT}")
k8s_grace = grace_ms(container.get("args"), "deployment.yaml")
if k8s_grace is not None:
    check(
        pod["terminationGracePeriodSeconds"] * 1000 > k8s_grace,
        "terminationGracePeriodSeconds must exceed --shutdown-grace-ms",
    )
annotations = deployment["spec"]["template"]["metadata"]["annotations"]
check(annotations.get("prometheus.io/port") == str(METRICS_PORT), "scrape port annotation")


def selects_pods(selector, where):
    """`selector` (a label map) matches the Deployment's pod labels."""
    check(
        bool(selector) and all(labels.get(k) == v for k, v in selector.items()),
        f"{where}: selector {selector} does not match pod labels {labels}",
    )


selects_pods(deployment["spec"]["selector"]["matchLabels"], "deployment.yaml")

service = load(K8S / "service.yaml")
selects_pods(service["spec"]["selector"], "service.yaml")
for p in service["spec"]["ports"]:
    check(p["targetPort"] in ports, f"service.yaml: targetPort {p['targetPort']} not a container port")
    check(p["port"] == ports.get(p["targetPort"]), f"service.yaml: port {p['port']} differs from container")

pdb = load(K8S / "poddisruptionbudget.yaml")
selects_pods(pdb["spec"]["selector"]["matchLabels"], "poddisruptionbudget.yaml")
check(pdb["spec"]["minAvailable"] < deployment["spec"]["replicas"], "PDB would block every eviction")

hpa = load(K8S / "hpa.yaml")
target = hpa["spec"]["scaleTargetRef"]
check(
    (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"]),
    "hpa.yaml does not target the Deployment",
)
check(hpa["spec"]["minReplicas"] >= deployment["spec"]["replicas"], "HPA minReplicas below replicas")

# Compose: SIGKILL comes after caberd's own grace period.
compose = load(DEPLOY / "compose.yaml")
caberd = compose["services"]["caberd"]
compose_grace = grace_ms(caberd.get("command"), "compose.yaml")
m = re.fullmatch(r"(\d+)s", str(caberd.get("stop_grace_period", "")))
check(m is not None, "compose.yaml: stop_grace_period must be given as Ns")
if m and compose_grace is not None:
    check(int(m.group(1)) * 1000 > compose_grace, "stop_grace_period must exceed --shutdown-grace-ms")
published = {str(p) for p in caberd.get("ports", [])}
check(published == {f"{GRPC_PORT}:{GRPC_PORT}", f"{METRICS_PORT}:{METRICS_PORT}"}, f"compose ports {published}")
check(caberd.get("read_only") is True, "compose.yaml: root filesystem is not read-only")

for problem in problems:
    print(f"consistency: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print("consistency: ok")
