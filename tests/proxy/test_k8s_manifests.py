"""deploy/k8s/ and the compose file read without a cluster: every manifest is well formed,
the probes name the app's own routes and port, the drain fits in the grace period, the
names the manifests share (Secret, ConfigMap, Deployment) agree, and every variable they
set is one the app reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.config import Settings
from tests.servers import ROOT

DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
# app/__main__.py reads these two itself; everything else is a Settings field.
MAIN_VARIABLES = {"HOST", "PORT"}


def manifests() -> list[tuple[Path, dict[str, Any]]]:
    yaml = pytest.importorskip("yaml")
    found = []
    for path in sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")]):
        for document in yaml.safe_load_all(path.read_text()):
            if document is not None:
                found.append((path, document))
    return found


def kubernetes() -> list[dict[str, Any]]:
    return [doc for path, doc in manifests() if path.is_relative_to(K8S)]


def one(kind: str) -> dict[str, Any]:
    found = [doc for doc in kubernetes() if doc["kind"] == kind]
    assert len(found) == 1, kind
    return found[0]


def app_container() -> dict[str, Any]:
    containers = one("Deployment")["spec"]["template"]["spec"]["containers"]
    assert [c["name"] for c in containers] == ["app"]
    return containers[0]  # type: ignore[no-any-return]


def plain_env(container: dict[str, Any]) -> dict[str, str]:
    return {item["name"]: item["value"] for item in container["env"] if "value" in item}


def test_every_manifest_names_its_api_kind_and_name() -> None:
    kinds = set()
    for path, doc in manifests():
        if path.name == "docker-compose.yml":
            continue
        assert {"apiVersion", "kind", "metadata"} <= set(doc), path
        assert doc["metadata"]["name"], path
        kinds.add(doc["kind"])
    assert kinds == {
        "ConfigMap", "Deployment", "HorizontalPodAutoscaler", "Ingress", "Job",
        "PodDisruptionBudget", "Secret", "Service",
    }  # fmt: skip


def test_probes_are_the_apps_routes_on_its_port(settings: Settings) -> None:
    container = app_container()
    assert container["command"] == ["python", "-m", "app"]  # not the image's migrating CMD
    assert container["ports"] == [{"name": "http", "containerPort": 8000}]
    assert plain_env(container)["PORT"] == "8000"
    assert plain_env(container)["HOST"] == "0.0.0.0"
    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    assert readiness["httpGet"]["path"] == "/readyz"
    assert liveness["httpGet"]["path"] == "/healthz"
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    for probe in (readiness, liveness, container["startupProbe"]):
        assert probe["httpGet"]["port"] in ("http", 8000)
    # A database outage (readiness 503) never restarts pods; a stuck process does, in 60 s.
    assert liveness["failureThreshold"] * liveness["periodSeconds"] >= 60
    [service] = [
        doc
        for doc in kubernetes()
        if doc["kind"] == "Service" and doc["metadata"]["name"] == "game-nook"
    ]
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["ports"] == [{"name": "http", "port": 80, "targetPort": "http"}]
    assert service["spec"]["selector"] == one("Deployment")["spec"]["selector"]["matchLabels"]

    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings)) as client:  # each probe, asked as the kubelet asks
        for probe in (readiness, liveness, container["startupProbe"]):
            assert client.get(probe["httpGet"]["path"]).status_code == 200


def test_the_drain_fits_in_the_grace_period() -> None:
    pod = one("Deployment")["spec"]["template"]["spec"]
    container = app_container()
    shutdown_s = float(plain_env(container)["SHUTDOWN_S"])
    assert shutdown_s == Settings(shutdown_s=shutdown_s).shutdown_s  # within its bounds
    grace = pod["terminationGracePeriodSeconds"]
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop_s = float(command[1])
    assert grace > shutdown_s > 3
    assert pre_stop_s + shutdown_s < grace
    assert one("Deployment")["spec"]["strategy"]["rollingUpdate"] == {
        "maxUnavailable": 0,
        "maxSurge": 1,
    }


def test_pods_run_unprivileged_with_a_writable_var() -> None:
    pod = one("Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    container = app_container()
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/srv/var"]]
    assert container["resources"]["limits"] == {"cpu": "1", "memory": "512Mi"}
    assert container["resources"]["requests"] == {"cpu": "250m", "memory": "256Mi"}


def test_the_job_migrates_and_the_autoscaler_scales_the_deployment() -> None:
    job = one("Job")
    assert job["spec"]["backoffLimit"] >= 1 and job["spec"]["ttlSecondsAfterFinished"] > 0
    [migrate] = job["spec"]["template"]["spec"]["containers"]
    assert migrate["command"] == ["alembic", "upgrade", "head"]
    assert migrate["image"] == app_container()["image"]
    hpa = one("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": one("Deployment")["metadata"]["name"],
    }
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (2, 10)
    assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    # Every pod at its most connections fits PostgreSQL's default max_connections (100).
    config = one("ConfigMap")["data"]
    per_pod = int(config["DB_POOL_SIZE"]) + int(config["DB_MAX_OVERFLOW"])
    assert hpa["spec"]["maxReplicas"] * per_pod == 80
    pdb = one("PodDisruptionBudget")
    assert pdb["spec"]["minAvailable"] == 1
    assert pdb["spec"]["selector"] == one("Deployment")["spec"]["selector"]
    externals = {
        doc["metadata"]["name"]: doc["spec"]["type"]
        for doc in kubernetes()
        if doc["kind"] == "Service" and doc["metadata"]["name"] != "game-nook"
    }
    assert externals == {"postgres": "ExternalName", "redis": "ExternalName"}


def test_the_secret_and_config_are_named_alike_and_hold_only_settings() -> None:
    secret, config = one("Secret"), one("ConfigMap")
    assert set(secret["stringData"]) == {"SECRET", "DATABASE_URL"}
    assert secret["stringData"]["SECRET"] == "change-me"  # a template, never a real value
    fields = {name.upper() for name in Settings.model_fields} | MAIN_VARIABLES
    containers = [app_container(), one("Job")["spec"]["template"]["spec"]["containers"][0]]
    for container in containers:
        for item in container["env"]:
            assert item["name"] in fields, item["name"]
            ref = item.get("valueFrom", {}).get("secretKeyRef")
            if ref is not None:
                assert ref["name"] == secret["metadata"]["name"]
                assert ref["key"] in secret["stringData"]
        for source in container.get("envFrom", []):
            assert source["configMapRef"]["name"] == config["metadata"]["name"]
    assert set(config["data"]) <= fields
    assert Settings(**{k.lower(): v for k, v in config["data"].items()}).log_format == "json"


def test_compose_apps_are_healthy_when_ready_and_drain_before_a_kill() -> None:
    [(_, compose)] = [(p, d) for p, d in manifests() if p.name == "docker-compose.yml"]
    services = compose["services"]
    for name in ("app1", "app2"):
        app = services[name]
        test = app["healthcheck"]["test"]
        assert test[:3] == ["CMD", "python", "-c"]
        assert "http://127.0.0.1:8000/readyz" in test[3]
        shutdown_s = float(app["environment"]["SHUTDOWN_S"])
        assert shutdown_s > 3
        assert app["stop_grace_period"].endswith("s")
        assert float(app["stop_grace_period"][:-1]) > shutdown_s
        assert services["nginx"]["depends_on"][name] == {"condition": "service_healthy"}
