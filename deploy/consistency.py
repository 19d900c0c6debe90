"""Cross-file checks for deploy/ that no schema can express.

Run by deploy/validate.sh from the repository root, with the kustomize
renders of deploy/k8s/base, deploy/k8s/overlays/production and
deploy/k8s/jobs:

    python deploy/consistency.py base=BASE.yaml production=PROD.yaml jobs=JOBS.yaml

It also checks the examples in deploy/k8s/examples against those renders
(the ServiceMonitor, the PodSecurity namespace, the Gateway and GRPCRoute),
and every pod template of the renders against the Pod Security Standards'
`restricted` profile.

Prints every mismatch found and exits 1 if there is any.
"""

import math
import pathlib
import re
import sys
import tomllib

import yaml

DEPLOY = pathlib.Path("deploy")
K8S = DEPLOY / "k8s"
GRPC_PORT = 50051
METRICS_PORT = 9090
IMAGE_UID = 65532
# Time kept between caberd's own deadline and the orchestrator's SIGKILL.
MARGIN_MS = 2000
# caberd's built-in default for --max-movetime-ms.
DEFAULT_MAX_MOVETIME_MS = 60000
RENDERS = ("base", "production", "jobs")
# A startup probe must give caberd at least this long to start.
STARTUP_BUDGET_S = 60
# gRPC services that caberd serves besides those of proto/: health checks
# and server reflection.
STANDARD_GRPC_SERVICES = {
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
}

problems = []


def check(ok, message):
    """Record `message` as a problem unless `ok`."""
    if not ok:
        problems.append(message)
    return ok


def load(path):
    """The single YAML document in `path`."""
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def load_all(path):
    """Every YAML document in `path`, by (kind, name)."""
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    return {(d["kind"], d["metadata"]["name"]): d for d in docs}


def flag(args, name):
    """The value of `--name=V` or `--name V` in an argument list, or None."""
    args = [str(a) for a in args or []]
    for i, arg in enumerate(args):
        if arg.startswith(f"--{name}="):
            return arg.split("=", 1)[1]
        if arg == f"--{name}" and i + 1 < len(args):
            return args[i + 1]
    return None


def setting(args, env, name, variable):
    """A caberd setting as the flag (which wins) or the environment gives it."""
    value = flag(args, name)
    return value if value is not None else env.get(variable)


def shutdown_budget(where, args, env, stop_ms):
    """The shutdown relations of one caberd configuration.

    `stop_ms`: what the orchestrator leaves caberd between SIGTERM and
    SIGKILL. A call admitted just before SIGTERM must end within
    --shutdown-grace-ms: a search lasts at most --max-movetime-ms once it
    runs, and with more searches admitted than search threads the last one
    may first wait for ceil(max_searches / search_threads) - 1 others.
    """
    grace = setting(args, env, "shutdown-grace-ms", "CABER_SHUTDOWN_GRACE_MS")
    if not check(grace is not None, f"{where}: --shutdown-grace-ms is not set"):
        return
    grace = int(grace)
    check(
        grace + MARGIN_MS <= stop_ms,
        f"{where}: --shutdown-grace-ms {grace} + margin {MARGIN_MS} ms exceeds the "
        f"{stop_ms} ms the orchestrator leaves before SIGKILL",
    )
    movetime = int(setting(args, env, "max-movetime-ms", "CABER_MAX_MOVETIME_MS") or DEFAULT_MAX_MOVETIME_MS)
    searches = setting(args, env, "max-searches", "CABER_MAX_SEARCHES")
    threads = setting(args, env, "search-threads", "CABER_SEARCH_THREADS")
    if not check(
        searches is not None and threads is not None,
        f"{where}: CABER_MAX_SEARCHES and CABER_SEARCH_THREADS must both be set "
        "(the defaults depend on the machine)",
    ):
        return
    waves = math.ceil(int(searches) / int(threads))
    check(
        waves * movetime <= grace,
        f"{where}: {waves} x max movetime {movetime} ms (max searches {searches} on "
        f"{threads} threads) exceeds --shutdown-grace-ms {grace}",
    )


def env_of(container):
    """A container's literal environment variables."""
    return {e["name"]: e.get("value") for e in container.get("env", []) if "value" in e}


def cpu_cores(quantity):
    """A CPU quantity ("2", "1500m") in cores."""
    text = str(quantity)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


# --- Dockerfile ------------------------------------------------------------

dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
exposed = set()
for m in re.finditer(r"^EXPOSE\s+(.+)$", dockerfile, re.M):
    exposed.update(int(p.split("/")[0]) for p in m.group(1).split())
check(exposed == {GRPC_PORT, METRICS_PORT}, f"Dockerfile EXPOSE {sorted(exposed)}")
froms = re.findall(r"^FROM\s+(\S+)", dockerfile, re.M)
check(len(froms) == 2, f"Dockerfile: expected a builder and a runtime stage, found FROM {froms}")
for image in froms:
    check(
        re.fullmatch(r"[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}", image) is not None,
        f"Dockerfile: FROM {image} is not pinned as image:tag@sha256:<digest>",
    )
workspace = tomllib.loads(pathlib.Path("Cargo.toml").read_text(encoding="utf-8"))
rust_version = tuple(int(x) for x in workspace["workspace"]["package"]["rust-version"].split("."))
m = re.match(r"rust:(\d+)\.(\d+)", froms[0] if froms else "")
if check(m is not None, "Dockerfile: the builder is not a rust:MAJOR.MINOR image"):
    builder = (int(m.group(1)), int(m.group(2)))
    check(builder >= rust_version[:2], f"Dockerfile: builder Rust {builder} older than rust-version {rust_version}")
build_line = re.search(r"cargo build [^&]*", dockerfile)
for package_dir, binary in (("service", "caberd"), ("cli", "caber")):
    manifest = tomllib.loads((pathlib.Path(package_dir) / "Cargo.toml").read_text(encoding="utf-8"))
    package = manifest["package"]["name"]
    bins = {b["name"] for b in manifest.get("bin", [])}
    check(binary in bins, f"{package_dir}/Cargo.toml has no [[bin]] {binary}")
    check(
        build_line is not None and re.search(rf"-p {package} --bin {binary}\b", build_line.group(0)) is not None,
        f"Dockerfile: the builder does not build `-p {package} --bin {binary}`",
    )
    check(
        re.search(rf"^COPY --from=builder /out/{binary} /usr/local/bin/{binary}$", dockerfile, re.M) is not None,
        f"Dockerfile: {binary} is not copied to /usr/local/bin",
    )
check('ENTRYPOINT ["/usr/local/bin/caberd"]' in dockerfile, "Dockerfile: the entrypoint is not caberd")
check(re.search(rf"^USER {IMAGE_UID}:{IMAGE_UID}$", dockerfile, re.M) is not None, "Dockerfile: USER is not 65532:65532")

# --- kustomizations: every file is listed ----------------------------------

base_files = {p.name for p in (K8S / "base").glob("*.yaml") if p.name != "kustomization.yaml"}
listed = set(load(K8S / "base" / "kustomization.yaml").get("resources", []))
check(listed == base_files, f"base/kustomization.yaml resources {sorted(listed)} != files {sorted(base_files)}")
overlay = load(K8S / "overlays" / "production" / "kustomization.yaml")
patch_files = {p["path"] for p in overlay.get("patches", [])}
overlay_files = {p.name for p in (K8S / "overlays" / "production").glob("*.yaml") if p.name != "kustomization.yaml"}
check(patch_files == overlay_files, f"production patches {sorted(patch_files)} != files {sorted(overlay_files)}")
check(overlay.get("resources") == ["../../base"], "the production overlay does not build on ../../base")
job_files = {p.name for p in (K8S / "jobs").glob("*.yaml") if p.name != "kustomization.yaml"}
listed = set(load(K8S / "jobs" / "kustomization.yaml").get("resources", []))
check(listed == job_files, f"jobs/kustomization.yaml resources {sorted(listed)} != files {sorted(job_files)}")


# --- the caberd objects, in each render ------------------------------------


def check_pod_security(where, pod, container):
    """As the image runs: non-root 65532, read-only root, nothing extra."""
    pod_sc = pod.get("securityContext", {})
    sc = container.get("securityContext", {})
    check(pod_sc.get("runAsNonRoot") is True, f"{where}: runAsNonRoot is not set")
    check(pod_sc.get("runAsUser") == IMAGE_UID, f"{where}: runAsUser is not {IMAGE_UID}")
    check(sc.get("readOnlyRootFilesystem") is True, f"{where}: root filesystem is not read-only")
    check(sc.get("allowPrivilegeEscalation") is False, f"{where}: privilege escalation is allowed")
    check(sc.get("capabilities", {}).get("drop") == ["ALL"], f"{where}: capabilities are not all dropped")
    check(pod.get("automountServiceAccountToken") is False, f"{where}: the service-account token is mounted")


def check_secret_file(where, pod, container, path, what):
    """`path` lies in a read-only Secret volume the non-root user can read."""
    mounts = [m for m in container.get("volumeMounts", []) if path.startswith(m["mountPath"].rstrip("/") + "/")]
    if not check(len(mounts) == 1, f"{where}: {what} {path} is not in one mounted volume"):
        return
    (mount,) = mounts
    check(mount.get("readOnly") is True, f"{where}: the volume of {what} is not mounted read-only")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    secret = volumes.get(mount["name"], {}).get("secret")
    if not check(secret is not None, f"{where}: {what} does not come from a Secret volume"):
        return
    mode = secret.get("defaultMode", 0o644)
    if mode & 0o004 == 0:
        check(
            pod.get("securityContext", {}).get("fsGroup") == IMAGE_UID,
            f"{where}: {what} (mode {mode:o}) is unreadable by uid {IMAGE_UID} without fsGroup {IMAGE_UID}",
        )


def check_caberd(render, objects):
    """The server's objects of one render."""
    where = f"{render}: Deployment caberd"
    deployment = objects.get(("Deployment", "caberd"))
    if not check(deployment is not None, f"{render}: no Deployment caberd"):
        return
    template = deployment["spec"]["template"]
    labels = template["metadata"]["labels"]
    pod = template["spec"]
    (container,) = pod["containers"]
    args = container.get("args", [])
    env = env_of(container)

    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    check(ports == {"grpc": GRPC_PORT, "metrics": METRICS_PORT}, f"{where}: container ports {ports}")
    check(env.get("CABER_LISTEN") == f"0.0.0.0:{GRPC_PORT}", f"{where}: CABER_LISTEN is not 0.0.0.0:{GRPC_PORT}")
    check(
        env.get("CABER_METRICS_LISTEN") == f"0.0.0.0:{METRICS_PORT}",
        f"{where}: CABER_METRICS_LISTEN is not 0.0.0.0:{METRICS_PORT}",
    )
    check_pod_security(where, pod, container)

    # Probes: gRPC while plaintext; with TLS the kubelet's gRPC probes
    # (plaintext only) would fail, so TCP probes on the gRPC port.
    tls_cert = setting(args, env, "tls-cert", "CABER_TLS_CERT")
    tls_key = setting(args, env, "tls-key", "CABER_TLS_KEY")
    check((tls_cert is None) == (tls_key is None), f"{where}: TLS needs both a certificate and a key")
    # The startup probe holds the other two back until caberd answers, so
    # that liveness cannot kill a pod that is still starting.
    startup = container.get("startupProbe", {})
    if check(bool(startup), f"{where}: no startupProbe"):
        budget = startup.get("failureThreshold", 3) * startup.get("periodSeconds", 10)
        check(budget >= STARTUP_BUDGET_S, f"{where}: the startupProbe allows {budget} s to start, less than {STARTUP_BUDGET_S} s")
    for name in ("startupProbe", "readinessProbe", "livenessProbe"):
        probe = container.get(name, {})
        if tls_cert:
            port = probe.get("tcpSocket", {}).get("port")
            check(
                "grpc" not in probe and port in ("grpc", GRPC_PORT),
                f"{where}: with TLS, {name} must be a tcpSocket probe on the gRPC port",
            )
        else:
            check(probe.get("grpc", {}).get("port") == GRPC_PORT, f"{where}: {name} is not a gRPC probe on {GRPC_PORT}")
    for path, what in ((tls_cert, "the TLS certificate"), (tls_key, "the TLS key")):
        if path:
            check_secret_file(where, pod, container, path, what)
    token = setting(args, env, "auth-token-file", "CABER_AUTH_TOKEN_FILE")
    if token:
        check_secret_file(where, pod, container, token, "the auth token")

    # Rolling updates: preStop sleep, then SIGTERM and caberd's grace, all
    # within terminationGracePeriodSeconds (which counts from the start of
    # the preStop hook).
    sleep = container.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds")
    if check(isinstance(sleep, int) and sleep > 0, f"{where}: no preStop sleep action"):
        stop_ms = pod["terminationGracePeriodSeconds"] * 1000 - sleep * 1000
        shutdown_budget(where, args, env, stop_ms)
    threads = env.get("CABER_SEARCH_THREADS")
    cpu = container.get("resources", {}).get("requests", {}).get("cpu")
    if threads is not None and check(cpu is not None, f"{where}: no CPU request"):
        check(int(threads) <= cpu_cores(cpu), f"{where}: {threads} search threads on a {cpu} CPU request")

    annotations = template["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/port") == str(METRICS_PORT), f"{where}: scrape port annotation")
    check(annotations.get("prometheus.io/path") == "/metrics", f"{where}: scrape path annotation")

    def selects_pods(selector, what):
        check(
            bool(selector) and all(labels.get(k) == v for k, v in selector.items()),
            f"{render}: {what}: selector {selector} does not match the pod labels {labels}",
        )

    selects_pods(deployment["spec"]["selector"]["matchLabels"], "Deployment caberd")

    for name, port_names in (("caberd", {"grpc", "metrics"}), ("caberd-headless", {"grpc"})):
        service = objects.get(("Service", name))
        if not check(service is not None, f"{render}: no Service {name}"):
            continue
        spec = service["spec"]
        selects_pods(spec["selector"], f"Service {name}")
        names = {p["name"] for p in spec["ports"]}
        check(names == port_names, f"{render}: Service {name} ports {sorted(names)}, expected {sorted(port_names)}")
        for p in spec["ports"]:
            check(p["targetPort"] in ports, f"{render}: Service {name}: targetPort {p['targetPort']} not a container port")
            check(p["port"] == ports.get(p["targetPort"]), f"{render}: Service {name}: port {p['port']} differs from the container's")
        if name == "caberd-headless":
            check(spec.get("clusterIP") == "None", f"{render}: Service {name} is not headless")
            check(spec.get("publishNotReadyAddresses") is False, f"{render}: Service {name} publishes pods that are not ready")
        else:
            check(spec.get("type", "ClusterIP") == "ClusterIP" and "clusterIP" not in spec, f"{render}: Service {name} is not a ClusterIP Service")

    replicas = deployment["spec"]["replicas"]
    pdb = objects.get(("PodDisruptionBudget", "caberd"))
    if check(pdb is not None, f"{render}: no PodDisruptionBudget caberd"):
        selects_pods(pdb["spec"]["selector"]["matchLabels"], "PodDisruptionBudget caberd")
        check(pdb["spec"]["minAvailable"] < replicas, f"{render}: the PodDisruptionBudget would block every eviction")
    hpa = objects.get(("HorizontalPodAutoscaler", "caberd"))
    if check(hpa is not None, f"{render}: no HorizontalPodAutoscaler caberd"):
        target = hpa["spec"]["scaleTargetRef"]
        check((target["kind"], target["name"]) == ("Deployment", "caberd"), f"{render}: the HPA does not target the Deployment")
        check(hpa["spec"]["minReplicas"] >= replicas, f"{render}: HPA minReplicas below the Deployment's replicas")
        if pdb is not None:
            check(hpa["spec"]["minReplicas"] > pdb["spec"]["minAvailable"], f"{render}: HPA minReplicas within the PDB's minAvailable")

    # NetworkPolicy: ingress to the gRPC and metrics ports only, no egress.
    policy = objects.get(("NetworkPolicy", "caberd"))
    if check(policy is not None, f"{render}: no NetworkPolicy caberd"):
        spec = policy["spec"]
        selects_pods(spec["podSelector"]["matchLabels"], "NetworkPolicy caberd")
        check(sorted(spec.get("policyTypes", [])) == ["Egress", "Ingress"], f"{render}: NetworkPolicy policyTypes {spec.get('policyTypes')}")
        check(not spec.get("egress"), f"{render}: NetworkPolicy allows egress")
        allowed = set()
        for rule in spec.get("ingress", []):
            check(bool(rule.get("ports")), f"{render}: a NetworkPolicy ingress rule without ports opens every port")
            check(bool(rule.get("from")), f"{render}: a NetworkPolicy ingress rule without `from` admits every source")
            for p in rule.get("ports", []):
                allowed.add(p["port"] if isinstance(p["port"], str) else {v: k for k, v in ports.items()}.get(p["port"], p["port"]))
        check(allowed == {"grpc", "metrics"}, f"{render}: NetworkPolicy admits ports {sorted(map(str, allowed))}, expected grpc and metrics")


def check_job(objects):
    """The Indexed Job: distinct seeds per shard, as the image runs."""
    job = objects.get(("Job", "caber-match"))
    if not check(job is not None, "jobs: no Job caber-match"):
        return
    spec = job["spec"]
    where = "jobs: Job caber-match"
    check(spec.get("completionMode") == "Indexed", f"{where}: not an Indexed Job")
    check(spec.get("parallelism", 1) <= spec["completions"], f"{where}: parallelism above completions")
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    check(pod.get("restartPolicy") == "Never", f"{where}: restartPolicy is not Never (needed by backoffLimitPerIndex)")
    check_pod_security(where, pod, container)
    check(container.get("command") == ["/usr/local/bin/caber"], f"{where}: does not run the image's caber")
    args = [str(a) for a in container.get("args", [])]
    check("match" in args and "--json" in args, f"{where}: not a `caber match --json`")
    env = {e["name"]: e for e in container.get("env", [])}
    check(
        env.get("JOB_COMPLETION_INDEX", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        == "metadata.annotations['batch.kubernetes.io/job-completion-index']",
        f"{where}: JOB_COMPLETION_INDEX does not come from the completion index annotation",
    )
    seed = flag(args, "seed") or ""
    m = re.fullmatch(r"\$\(JOB_COMPLETION_INDEX\)(0*)", seed)
    if check(m is not None, f"{where}: --seed {seed!r} is not $(JOB_COMPLETION_INDEX) followed by zeros"):
        stride = 10 ** len(m.group(1))
        # caber match plays each deal twice: --games N is N/2 deals.
        deals = (int(flag(args, "games") or 10) + 1) // 2
        check(deals <= stride, f"{where}: {deals} deals per shard overlap the next shard's seeds ({stride} apart)")
    check(not container.get("ports"), f"{where}: a batch pod exposes ports")


def check_service_monitor(base):
    """The ServiceMonitor example: selects the Service with the metrics port."""
    monitor = load(K8S / "examples" / "servicemonitor.yaml")
    where = "examples/servicemonitor.yaml"
    check(
        (monitor.get("apiVersion"), monitor.get("kind")) == ("monitoring.coreos.com/v1", "ServiceMonitor"),
        f"{where}: not a monitoring.coreos.com/v1 ServiceMonitor",
    )
    selector = monitor["spec"]["selector"]["matchLabels"]
    selected = [
        obj for (kind, _), obj in base.items()
        if kind == "Service" and all(obj["metadata"].get("labels", {}).get(k) == v for k, v in selector.items())
    ]
    for endpoint in monitor["spec"]["endpoints"]:
        with_port = [s["metadata"]["name"] for s in selected if endpoint["port"] in {p["name"] for p in s["spec"]["ports"]}]
        check(with_port == ["caberd"], f"{where}: port {endpoint['port']!r} is on the selected Services {with_port}, expected caberd only")
        check(endpoint.get("path", "/metrics") == "/metrics", f"{where}: path {endpoint.get('path')}")


# --- Pod Security Standards: the `restricted` profile ----------------------

# Volume types the restricted profile admits.
RESTRICTED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}
# Sysctls the baseline profile admits (as of Kubernetes 1.32).
SAFE_SYSCTLS = {
    "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}


def pod_templates(render, objects):
    """(where, pod spec) of every pod template in a render."""
    for (kind, name), obj in objects.items():
        spec = obj.get("spec", {})
        if kind == "CronJob":
            spec = spec.get("jobTemplate", {}).get("spec", {})
        if kind == "Pod":
            yield f"{render}: Pod {name}", spec
        elif "template" in spec:
            yield f"{render}: {kind} {name}", spec["template"].get("spec", {})


def check_restricted(where, pod):
    """The pod passes the `restricted` Pod Security Standard (baseline included).

    What the pod security admission controller checks, on the pod and on
    every container, init container and ephemeral container.
    """
    pod_sc = pod.get("securityContext", {})
    for field in ("hostNetwork", "hostPID", "hostIPC"):
        check(pod.get(field) is not True, f"{where}: {field} (restricted)")
    for volume in pod.get("volumes", []):
        types = set(volume) - {"name"}
        check(types <= RESTRICTED_VOLUMES, f"{where}: volume {volume['name']} of type {sorted(types)} (restricted)")
    for sysctl in pod_sc.get("sysctls", []):
        check(sysctl["name"] in SAFE_SYSCTLS, f"{where}: sysctl {sysctl['name']} (restricted)")
    containers = pod.get("containers", []) + pod.get("initContainers", []) + pod.get("ephemeralContainers", [])
    check(bool(pod.get("containers")), f"{where}: no containers")
    for container in containers:
        at = f"{where}: container {container['name']}"
        sc = container.get("securityContext", {})
        for context in (pod_sc, sc):
            check(context.get("windowsOptions", {}).get("hostProcess") is not True, f"{at}: hostProcess (restricted)")
            check(context.get("runAsUser") != 0, f"{at}: runAsUser 0 (restricted)")
            check(context.get("runAsNonRoot") is not False, f"{at}: runAsNonRoot false (restricted)")
            check(context.get("seccompProfile", {}).get("type") != "Unconfined", f"{at}: seccomp Unconfined (restricted)")
            check(context.get("appArmorProfile", {}).get("type") != "Unconfined", f"{at}: AppArmor Unconfined (restricted)")
            selinux = context.get("seLinuxOptions", {})
            check(
                selinux.get("type") in (None, "", "container_t", "container_init_t", "container_kvm_t", "container_engine_t")
                and not selinux.get("user") and not selinux.get("role"),
                f"{at}: SELinux options {selinux} (restricted)",
            )
        check(sc.get("privileged") is not True, f"{at}: privileged (restricted)")
        check(sc.get("procMount", "Default") == "Default", f"{at}: procMount {sc.get('procMount')} (restricted)")
        check(sc.get("allowPrivilegeEscalation") is False, f"{at}: allowPrivilegeEscalation is not false (restricted)")
        check(
            sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")) is True,
            f"{at}: runAsNonRoot is not true on the pod or the container (restricted)",
        )
        check(
            sc.get("seccompProfile", pod_sc.get("seccompProfile", {})).get("type") in ("RuntimeDefault", "Localhost"),
            f"{at}: seccompProfile is not RuntimeDefault or Localhost (restricted)",
        )
        capabilities = sc.get("capabilities", {})
        check("ALL" in capabilities.get("drop", []), f"{at}: capabilities do not drop ALL (restricted)")
        check(
            set(capabilities.get("add", [])) <= {"NET_BIND_SERVICE"},
            f"{at}: capabilities add {capabilities.get('add')} (restricted: NET_BIND_SERVICE at most)",
        )
        for port in container.get("ports", []):
            check(not port.get("hostPort"), f"{at}: hostPort {port.get('hostPort')} (restricted)")


def check_namespace_example(production):
    """The namespace example: the production overlay's, under `restricted`."""
    where = "examples/namespace.yaml"
    namespace = load(K8S / "examples" / "namespace.yaml")
    if not check(
        (namespace.get("apiVersion"), namespace.get("kind")) == ("v1", "Namespace"),
        f"{where}: not a v1 Namespace",
    ):
        return
    deployment = production.get(("Deployment", "caberd"), {})
    name = namespace["metadata"]["name"]
    check(
        name == deployment.get("metadata", {}).get("namespace"),
        f"{where}: namespace {name} is not the production overlay's",
    )
    labels = namespace["metadata"].get("labels", {})
    for mode in ("enforce", "audit", "warn"):
        label = f"pod-security.kubernetes.io/{mode}"
        check(labels.get(label) == "restricted", f"{where}: {label} is not restricted")
        version = str(labels.get(f"{label}-version"))
        check(
            version == "latest" or re.fullmatch(r"v1\.\d+", version) is not None,
            f"{where}: {label}-version {version!r} is neither latest nor v1.MINOR",
        )


# --- Gateway API: the Gateway and GRPCRoute examples ------------------------


def proto_services():
    """Full names of the gRPC services in proto/."""
    services = set()
    for path in pathlib.Path("proto").rglob("*.proto"):
        text = path.read_text(encoding="utf-8")
        package = re.search(r"^package\s+([\w.]+)\s*;", text, re.M)
        for m in re.finditer(r"^service\s+(\w+)", text, re.M):
            services.add(f"{package.group(1)}.{m.group(1)}" if package else m.group(1))
    return services


def hostname_matches(pattern, hostname):
    """`hostname` is within the listener hostname `pattern` (may be `*.`)."""
    if pattern is None:
        return True
    if pattern.startswith("*."):
        return hostname.endswith(pattern[1:]) and hostname != pattern[2:]
    return hostname == pattern


def check_gateway_example(base):
    """The GRPCRoute reaches the caberd Service's gRPC port via the Gateway."""
    gateway = load(K8S / "examples" / "gateway.yaml")
    route = load(K8S / "examples" / "grpcroute.yaml")
    group = "gateway.networking.k8s.io"
    where = "examples/grpcroute.yaml"
    check((gateway.get("apiVersion"), gateway.get("kind")) == (f"{group}/v1", "Gateway"), "examples/gateway.yaml: not a v1 Gateway")
    check((route.get("apiVersion"), route.get("kind")) == (f"{group}/v1", "GRPCRoute"), f"{where}: not a v1 GRPCRoute")
    listeners = {listener["name"]: listener for listener in gateway["spec"]["listeners"]}
    for listener in listeners.values():
        at = f"examples/gateway.yaml: listener {listener['name']}"
        check(listener["protocol"] in ("HTTPS", "HTTP"), f"{at}: protocol {listener['protocol']} cannot carry a GRPCRoute")
        if listener["protocol"] == "HTTPS":
            tls = listener.get("tls", {})
            check(
                tls.get("mode", "Terminate") == "Terminate" and bool(tls.get("certificateRefs")),
                f"{at}: an HTTPS listener must terminate TLS with a certificate",
            )
        kinds = listener.get("allowedRoutes", {}).get("kinds")
        check(
            kinds is None or any(k.get("group", group) == group and k["kind"] == "GRPCRoute" for k in kinds),
            f"{at}: does not admit GRPCRoutes",
        )
    check(bool(route["spec"].get("parentRefs")), f"{where}: no parentRefs")
    for ref in route["spec"].get("parentRefs", []):
        check(
            (ref.get("group", group), ref.get("kind", "Gateway"), ref["name"]) == (group, "Gateway", gateway["metadata"]["name"]),
            f"{where}: parentRef {ref} is not the Gateway {gateway['metadata']['name']}",
        )
        check(
            ref.get("namespace", gateway["metadata"].get("namespace")) == gateway["metadata"].get("namespace"),
            f"{where}: parentRef {ref} is in another namespace than the Gateway",
        )
        section = ref.get("sectionName")
        attached = [listeners[section]] if section in listeners else [] if section else list(listeners.values())
        if not check(bool(attached), f"{where}: parentRef sectionName {section!r} is no listener of the Gateway"):
            continue
        for listener in attached:
            namespaces = listener.get("allowedRoutes", {}).get("namespaces", {}).get("from", "Same")
            check(namespaces in ("Same", "All"), f"{where}: listener {listener['name']} does not admit routes of its own namespace")
            for hostname in route["spec"].get("hostnames", []):
                check(
                    hostname_matches(listener.get("hostname"), hostname),
                    f"{where}: hostname {hostname} is outside listener {listener['name']}'s {listener.get('hostname')}",
                )
    service = base.get(("Service", "caberd"), {})
    grpc_ports = {p["port"] for p in service.get("spec", {}).get("ports", []) if p["name"] == "grpc"}
    known = proto_services() | STANDARD_GRPC_SERVICES
    routed = set()
    for rule in route["spec"].get("rules", []):
        check(bool(rule.get("backendRefs")), f"{where}: a rule without backendRefs")
        for backend in rule.get("backendRefs", []):
            check(
                (backend.get("group", ""), backend.get("kind", "Service"), backend["name"]) == ("", "Service", "caberd"),
                f"{where}: backendRef {backend} is not the Service caberd",
            )
            check(
                backend.get("port") in grpc_ports,
                f"{where}: backendRef port {backend.get('port')} is not the caberd Service's grpc port {sorted(grpc_ports)}",
            )
        for match in rule.get("matches", []):
            method = match.get("method", {})
            if "service" in method and method.get("type", "Exact") == "Exact":
                check(method["service"] in known, f"{where}: caberd serves no gRPC service {method['service']}")
                routed.add(method["service"])
    api = proto_services()
    check(api <= routed, f"{where}: the API services {sorted(api - routed)} are not routed")


renders = {}
for arg in sys.argv[1:]:
    name, _, path = arg.partition("=")
    renders[name] = load_all(path)
if sorted(renders) != sorted(RENDERS):
    print(f"usage: consistency.py {' '.join(f'{r}=FILE' for r in RENDERS)}", file=sys.stderr)
    sys.exit(2)
check_caberd("base", renders["base"])
check_caberd("production", renders["production"])
check_job(renders["jobs"])
check_service_monitor(renders["base"])
check_namespace_example(renders["production"])
check_gateway_example(renders["base"])
for render in RENDERS:
    for where, pod in pod_templates(render, renders[render]):
        check_restricted(where, pod)
prod_deployment = renders["production"].get(("Deployment", "caberd"), {})
check(
    prod_deployment.get("metadata", {}).get("namespace") is not None,
    "production: the overlay sets no namespace",
)

# --- compose ----------------------------------------------------------------

compose = load(DEPLOY / "compose.yaml")
for name, service in compose["services"].items():
    check(service.get("read_only") is True, f"compose.yaml: {name}: root filesystem is not read-only")
    check(service.get("user") == f"{IMAGE_UID}:{IMAGE_UID}", f"compose.yaml: {name}: user is not {IMAGE_UID}:{IMAGE_UID}")
    check(service.get("cap_drop") == ["ALL"], f"compose.yaml: {name}: capabilities are not all dropped")
caberd = compose["services"]["caberd"]
m = re.fullmatch(r"(\d+)s", str(caberd.get("stop_grace_period", "")))
if check(m is not None, "compose.yaml: stop_grace_period must be given as Ns"):
    # No preStop in compose: SIGTERM comes first, SIGKILL stop_grace_period later.
    shutdown_budget("compose.yaml", caberd.get("command"), caberd.get("environment", {}), int(m.group(1)) * 1000)
published = {str(p) for p in caberd.get("ports", [])}
check(published == {f"{GRPC_PORT}:{GRPC_PORT}", f"{METRICS_PORT}:{METRICS_PORT}"}, f"compose ports {published}")

for problem in problems:
    print(f"consistency: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print("consistency: ok")
