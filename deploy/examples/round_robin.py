#!/usr/bin/env python3
"""Client-side load balancing over caberd pods with Python grpcio.

Makes --calls ListGames calls on one channel whose service config asks for
the `round_robin` load-balancing policy (one connection to every address
the target resolves to, calls taken in turn) and retries calls that fail
with UNAVAILABLE (a pod shutting down, a connection lost) on the next
address. Prints how many calls succeeded; exits 1 if any failed.

The target is any gRPC target string:

    dns:///caberd-headless.NAMESPACE.svc.cluster.local:50051   in Kubernetes
    ipv4:127.0.0.1:50051,127.0.0.1:50052                        two local caberd

Calls are made with generic stubs on raw bytes (an empty ListGamesRequest
is zero bytes), so no generated code is needed; the reply's games are
counted from the protobuf encoding directly.

Requires grpcio (pip install grpcio==1.85.3).
"""

import argparse
import json
import pathlib
import sys

import grpc

# The recommended client policy for caberd (deploy/README.md): round robin
# over every pod, and UNAVAILABLE retried with backoff. Every caber.v1 call
# is safe to retry: the service is stateless, positions travel with each
# call.
SERVICE_CONFIG = {
    "loadBalancingConfig": [{"round_robin": {}}],
    "methodConfig": [
        {
            "name": [{"service": "caber.v1.GameEngine"}],
            "retryPolicy": {
                "maxAttempts": 4,
                "initialBackoff": "0.1s",
                "maxBackoff": "1s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ],
}

LIST_GAMES = "/caber.v1.GameEngine/ListGames"


def varint(data, at):
    """The protobuf varint at `at` and the offset after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def count_games(reply):
    """Entries of field 1 (`repeated GameInfo games`) in a ListGamesResponse."""
    games = at = 0
    while at < len(reply):
        key, at = varint(reply, at)
        field, wire_type = key >> 3, key & 7
        if wire_type == 0:
            _, at = varint(reply, at)
        elif wire_type == 2:
            length, at = varint(reply, at)
            at += length
            games += field == 1
        elif wire_type in (1, 5):
            at += 8 if wire_type == 1 else 4
        else:
            raise ValueError(f"unexpected wire type {wire_type}")
    return games


def channel(args):
    """The channel to `args.target`: plaintext, or TLS with --tls-ca."""
    options = [
        ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
        ("grpc.enable_retries", 1),
    ]
    authority = args.authority
    scheme, _, addresses = args.target.partition(":")
    if authority is None and scheme in ("ipv4", "ipv6") and "," in addresses:
        # grpcio would send the whole list as the :authority header, and
        # caberd's HTTP/2 stack refuses a comma there (RST_STREAM
        # PROTOCOL_ERROR, seen as INTERNAL "Stream removed"): name the
        # first address instead.
        authority = addresses.split(",")[0]
    if authority is not None:
        options.append(("grpc.default_authority", authority))
    if args.tls_ca is None:
        return grpc.insecure_channel(args.target, options=options)
    if args.tls_name:
        # The name the certificate was issued for, when the target does not
        # carry it (an ipv4: list, say).
        options.append(("grpc.ssl_target_name_override", args.tls_name))
    credentials = grpc.ssl_channel_credentials(root_certificates=pathlib.Path(args.tls_ca).read_bytes())
    return grpc.secure_channel(args.target, credentials, options=options)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help="gRPC target, e.g. dns:///caberd-headless.NAMESPACE.svc.cluster.local:50051")
    parser.add_argument("--calls", type=int, default=20, help="ListGames calls to make (default 20)")
    parser.add_argument("--timeout", type=float, default=5.0, help="deadline of each call in seconds (default 5)")
    parser.add_argument("--authority", help="the :authority header (default: the target's name; for an ipv4:/ipv6: list, its first address)")
    parser.add_argument("--tls-ca", help="PEM certificate(s) to trust: use TLS (the production overlay)")
    parser.add_argument("--tls-name", help="server name to check the certificate against (default: the target's)")
    parser.add_argument("--token-file", help="file holding the bearer token (CABER_AUTH_TOKEN_FILE of caberd)")
    args = parser.parse_args()

    metadata = []
    if args.token_file:
        token = pathlib.Path(args.token_file).read_text(encoding="utf-8").strip()
        metadata.append(("authorization", f"Bearer {token}"))

    ok = failed = 0
    with channel(args) as chan:
        # No serializers: the request and the reply are raw bytes.
        list_games = chan.unary_unary(LIST_GAMES, request_serializer=None, response_deserializer=None)
        for _ in range(args.calls):
            try:
                # wait_for_ready: the first calls wait for the connections
                # instead of failing while they are being set up.
                reply = list_games(b"", timeout=args.timeout, metadata=metadata, wait_for_ready=True)
            except grpc.RpcError as e:
                failed += 1
                print(f"round_robin.py: ListGames failed: {e.code().name}: {e.details()}", file=sys.stderr)
                continue
            if count_games(reply) > 0:
                ok += 1
            else:
                failed += 1
                print("round_robin.py: ListGames answered no games", file=sys.stderr)
    print(f"round_robin.py: {args.calls} ListGames calls to {args.target}: {ok} succeeded, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
