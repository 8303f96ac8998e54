/* test_device_placement.c -- the placement rules over workers built here:
 * mps and cuda never mixed, unified against dedicated memory, memory too
 * small, a missing capability, distributed mps refused, distributed cpu
 * accepted, and auto's order of preference. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/placement.h"

#define GiB (1ull << 30)

static gpl_device make_device(const char *accel, int index, const char *name,
                              gpulayer_memory_kind kind, uint64_t total, uint64_t usable,
                              const char *caps)
{
    gpl_device d;
    gpl_device_init(&d, accel, index);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.stable_id, sizeof d.stable_id, "%s-%d-uuid", accel, index);
    d.memory_kind = kind;
    d.memory_bytes = total;
    d.usable_bytes = usable;
    char list[256];
    snprintf(list, sizeof list, "%s", caps);
    for (char *save = NULL, *c = strtok_r(list, " ", &save); c; c = strtok_r(NULL, " ", &save))
        gpl_device_add_cap(&d, c);
    d.backend_built = d.backend_available = 1;
    return d;
}

/* An Apple-Silicon laptop: its GPU shares the 32 GiB of host memory. */
static gpl_device mac[2];
/* A server with two NVIDIA GPUs. */
static gpl_device server[3];
/* A workstation with a Vulkan-only GPU and a software Vulkan device. */
static gpl_device workstation[3];

static int setup(void **state)
{
    (void)state;
    mac[0] = make_device("cpu", 0, "Apple M2 CPU", GPULAYER_MEMORY_HOST, 32 * GiB, 20 * GiB,
                         "cpu.arm64");
    mac[1] = make_device("mps", 0, "Apple M2 Max", GPULAYER_MEMORY_UNIFIED, 32 * GiB, 21 * GiB,
                         "metal.apple7 metal.apple8 metal.float_atomics");
    server[0] = make_device("cpu", 0, "Xeon", GPULAYER_MEMORY_HOST, 512 * GiB, 400 * GiB,
                            "cpu.x86_64");
    server[1] = make_device("cuda", 0, "A100", GPULAYER_MEMORY_DEDICATED, 80 * GiB, 70 * GiB,
                            "cuda.sm_80");
    server[2] = make_device("cuda", 1, "RTX 3090", GPULAYER_MEMORY_DEDICATED, 24 * GiB,
                            20 * GiB, "cuda.sm_86");
    workstation[0] = make_device("cpu", 0, "Ryzen", GPULAYER_MEMORY_HOST, 64 * GiB, 50 * GiB,
                                 "cpu.x86_64");
    workstation[1] = make_device("vulkan", 0, "Radeon", GPULAYER_MEMORY_DEDICATED, 16 * GiB,
                                 15 * GiB, "vulkan.subgroup_arithmetic vulkan.atomic_int64");
    gpl_device_set_prop(&workstation[1], "device_type", "discrete");
    workstation[2] = make_device("vulkan", 1, "llvmpipe", GPULAYER_MEMORY_HOST, 64 * GiB,
                                 64 * GiB, "vulkan.subgroup_arithmetic");
    gpl_device_set_prop(&workstation[2], "device_type", "cpu");
    return 0;
}

static gpl_worker worker(const char *name, gpl_device *devs, int n)
{
    return (gpl_worker){name, devs, n};
}

static gpl_request req(const char *text)
{
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse(text, &r), GPULAYER_OK);
    return r;
}

static const gpl_device *considered_device(const gpl_worker *w, const gpl_consideration *k)
{
    return &w[k->worker].devices[k->device];
}

/* Every device that is not chosen has a reason; chosen ones have none. */
static void assert_every_device_explained(const gpl_decision *d)
{
    for (int i = 0; i < d->num_considered; i++) {
        const gpl_consideration *k = &d->considered[i];
        if (k->chosen)
            assert_string_equal(k->reason, "");
        else if (!k->reason[0])
            fail_msg("device %d of worker %d was not chosen but has no reason", k->device,
                     k->worker);
    }
}

/* The reason given for one device; fails when it is not in the decision. */
static const char *reason_for(const gpl_decision *d, const gpl_worker *w, const char *worker,
                              const char *accel, int index)
{
    for (int i = 0; i < d->num_considered; i++) {
        const gpl_consideration *k = &d->considered[i];
        const gpl_device *dev = considered_device(w, k);
        if (!strcmp(w[k->worker].name, worker) && !strcmp(dev->accelerator, accel) &&
            dev->index == index)
            return k->reason;
    }
    fail_msg("%s/%s:%d was not considered", worker, accel, index);
    return NULL;
}

static void assert_contains(const char *text, const char *part)
{
    if (!text) fail_msg("no reason where one containing '%s' was expected", part);
    else if (!strstr(text, part)) fail_msg("'%s' does not contain '%s'", text, part);
}

static const gpl_device *chosen(const gpl_decision *d, const gpl_worker *w, int i)
{
    assert_true(i < d->num_assignments);
    return &w[d->assignments[i].worker].devices[d->assignments[i].device];
}

static void test_cuda_job_never_lands_on_mps(void **state)
{
    (void)state;
    gpl_worker w[2] = {worker("mac", mac, 2), worker("server", server, 3)};
    gpl_request r = req("cuda");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_OK);
    assert_true(d.placed);
    assert_string_equal(d.accelerator, "cuda");
    assert_int_equal(d.num_assignments, 1);
    assert_string_equal(chosen(&d, w, 0)->accelerator, "cuda");
    assert_contains(reason_for(&d, w, "mac", "mps", 0), "the job needs cuda, this device is mps");
    assert_every_device_explained(&d);
    gpl_decision_release(&d);

    /* Only the Mac: refused, although it has a GPU. */
    r = req("cuda");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_false(d.placed);
    assert_int_equal(d.num_assignments, 0);
    assert_contains(gpulayer_last_error(), "mps:0: the job needs cuda, this device is mps");
    assert_contains(gpulayer_last_error(), "cpu:0: the job needs cuda");
    assert_every_device_explained(&d);
    gpl_decision_release(&d);
}

static void test_mps_job_never_lands_on_cuda(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("server", server, 3)};
    gpl_request r = req("mps");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "server", "cuda", 0), "the job needs mps, this device is cuda");
    assert_contains(reason_for(&d, w, "server", "cuda", 1), "the job needs mps, this device is cuda");
    /* A single worker: reasons name devices without a worker prefix. */
    assert_contains(gpulayer_last_error(), "; cuda:1: the job needs mps");
    gpl_decision_release(&d);

    gpl_worker both[2] = {worker("server", server, 3), worker("mac", mac, 2)};
    assert_int_equal(gpl_place(&r, both, 2, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, both, 0)->accelerator, "mps");
    assert_string_equal(both[d.assignments[0].worker].name, "mac");
    gpl_decision_release(&d);
}

static void test_dedicated_excludes_unified(void **state)
{
    (void)state;
    gpl_worker w[2] = {worker("mac", mac, 2), worker("server", server, 3)};
    gpl_request r = req("auto,memory_kind=dedicated");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "mac", "mps", 0), "unified memory shared with the CPU");
    assert_contains(reason_for(&d, w, "mac", "cpu", 0), "host's memory");
    assert_contains(gpulayer_last_error(), "unified memory shared with the CPU");
    gpl_decision_release(&d);

    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "cuda");
    assert_contains(reason_for(&d, w, "mac", "mps", 0), "unified memory shared with the CPU");
    assert_every_device_explained(&d);
    gpl_decision_release(&d);

    r = req("mps,memory_kind=dedicated");
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_ERR_PLACEMENT);
    gpl_decision_release(&d);
}

static void test_unified_request(void **state)
{
    (void)state;
    gpl_worker w[2] = {worker("server", server, 3), worker("mac", mac, 2)};
    gpl_request r = req("auto,memory_kind=unified");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "mps");
    assert_contains(reason_for(&d, w, "server", "cuda", 0), "dedicated memory, not the unified");
    assert_every_device_explained(&d);
    gpl_decision_release(&d);
}

static void test_memory_too_small(void **state)
{
    (void)state;
    gpl_worker w[2] = {worker("server", server, 3), worker("mac", mac, 2)};
    gpl_request r = req("cuda,memory=100G");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "server", "cuda", 0),
                    "has 70.0 GiB usable of 80.0 GiB dedicated memory; the request needs "
                    "100.0 GiB");
    gpl_decision_release(&d);

    /* Usable memory counts, not total: 21 of the Mac's 32 GiB. */
    r = req("mps,memory=24G");
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "mac", "mps", 0),
                    "21.0 GiB usable of 32.0 GiB of unified memory shared with the CPU");
    gpl_decision_release(&d);

    /* 24 GiB fits only the A100, although the 3090 has 24 GiB in total. */
    r = req("cuda,memory=24G");
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, w, 0)->name, "A100");
    gpl_decision_release(&d);
}

static void test_capabilities(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("server", server, 3)};
    gpl_request r = req("cuda,capability=cuda.sm_90");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "server", "cuda", 0),
                    "lacks capability cuda.sm_90 (has: cuda.sm_80)");
    gpl_decision_release(&d);

    /* sm_XY asks for at least compute capability X.Y. */
    r = req("cuda,capability=cuda.sm_86");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, w, 0)->name, "RTX 3090");
    assert_contains(reason_for(&d, w, "server", "cuda", 0), "lacks capability cuda.sm_86");
    gpl_decision_release(&d);

    assert_true(gpl_capability_satisfied(&server[2], "cuda.sm_80"));
    assert_false(gpl_capability_satisfied(&server[1], "cuda.sm_90a"));
    assert_true(gpl_capability_satisfied(&mac[1], "metal.apple6"));
    assert_false(gpl_capability_satisfied(&mac[1], "metal.apple9"));
    assert_false(gpl_capability_satisfied(&mac[1], "torch.mps"));

    gpl_worker ws[1] = {worker("ws", workstation, 3)};
    r = req("vulkan,capability=vulkan.atomic_int64");
    assert_int_equal(gpl_place(&r, ws, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, ws, 0)->name, "Radeon");
    assert_contains(reason_for(&d, ws, "ws", "vulkan", 1), "lacks capability vulkan.atomic_int64");
    gpl_decision_release(&d);
}

static void test_distributed_mps_rejected(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("mac", mac, 2)};
    gpl_request r = req("mps,nproc=2");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_false(d.placed);
    assert_contains(d.why, "single-process");
    assert_contains(gpulayer_last_error(), "single-process");
    gpl_decision_release(&d);

    /* auto never picks mps for a distributed job, and says why. */
    r = req("auto,nproc=2");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "cpu");
    assert_contains(reason_for(&d, w, "mac", "mps", 0), "single-process");
    gpl_decision_release(&d);
}

static void test_distributed_cpu_accepted(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("mac", mac, 2)};
    gpl_request r = req("cpu,nproc=4");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_int_equal(d.num_assignments, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(d.assignments[i].rank, i);
        assert_string_equal(chosen(&d, w, i)->accelerator, "cpu");
    }
    assert_contains(d.why, "4 ranks on 1 cpu device");
    gpl_decision_release(&d);
}

static void test_distributed_gpus_one_per_rank(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("server", server, 3)};
    gpl_request r = req("cuda,nproc=2");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_int_equal(d.num_assignments, 2);
    assert_true(d.assignments[0].device != d.assignments[1].device);
    gpl_decision_release(&d);

    r = req("cuda,nproc=3");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "server", "cuda", 0),
                    "the job needs 3 cuda devices and only 2 fit");
    gpl_decision_release(&d);
}

static void test_auto_preference_order(void **state)
{
    (void)state;
    /* One imaginary host with every kind of device, losing them one by one. */
    gpl_device all[5] = {server[0], workstation[1], mac[1], server[1], workstation[2]};
    const char *expect[] = {"cuda", "mps", "vulkan", "cpu"};
    gpl_device host[5];
    for (int drop = 0; drop < 4; drop++) {
        int n = 0;
        for (int i = 0; i < 5; i++) {
            const char *a = all[i].accelerator;
            int dropped = 0;
            for (int k = 0; k < drop; k++) dropped |= !strcmp(a, expect[k]);
            if (!dropped) host[n++] = all[i];
        }
        gpl_worker w[1] = {worker("host", host, n)};
        gpl_request r = req("auto");
        gpl_decision d;
        assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
        assert_string_equal(d.accelerator, expect[drop]);
        assert_contains(d.why, "auto: chose");
        assert_contains(d.why, "auto prefers cuda, then mps, vulkan and cpu");
        if (drop == 3) assert_contains(d.why, "no cuda, mps or vulkan device fits");
        /* The software Vulkan device is never auto's choice. */
        if (drop == 2)
            assert_contains(reason_for(&d, w, "host", "vulkan", 1), "software Vulkan");
        for (int i = 0; i < d.num_considered; i++)
            if (d.considered[i].fits && !d.considered[i].chosen)
                assert_contains(d.considered[i].reason, "fits, but auto preferred");
        assert_every_device_explained(&d);
        gpl_decision_release(&d);
    }
    /* CPU and a software Vulkan device: auto takes the CPU backend. */
    gpl_device soft[2] = {workstation[0], workstation[2]};
    gpl_worker w[1] = {worker("host", soft, 2)};
    gpl_request r = req("auto");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "cpu");
    assert_contains(reason_for(&d, w, "host", "vulkan", 1), "ask for vulkan to use it");
    gpl_decision_release(&d);
    /* Asked for by name, it is used. */
    r = req("vulkan");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "vulkan");
    gpl_decision_release(&d);
}

static void test_most_usable_memory_and_index(void **state)
{
    (void)state;
    gpl_worker w[1] = {worker("server", server, 3)};
    gpl_request r = req("cuda");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, w, 0)->name, "A100");
    assert_contains(d.why, "of 2 fitting cuda devices it has the most usable memory");
    assert_contains(reason_for(&d, w, "server", "cuda", 1), "fits, not needed");
    gpl_decision_release(&d);

    r = req("cuda:1");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(chosen(&d, w, 0)->name, "RTX 3090");
    assert_contains(reason_for(&d, w, "server", "cuda", 0), "the request names cuda:1");
    gpl_decision_release(&d);

    r = req("cuda,count=2");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_int_equal(d.num_assignments, 2);
    gpl_decision_release(&d);

    r = req("cuda,count=3");
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_ERR_PLACEMENT);
    gpl_decision_release(&d);
}

static void test_independent_devices_stay_on_one_worker(void **state)
{
    (void)state;
    gpl_device one[2] = {server[0], server[1]};
    gpl_device other[2] = {server[0], server[2]};
    gpl_worker w[2] = {worker("a", one, 2), worker("b", other, 2)};
    gpl_request r = req("cuda,count=2");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(reason_for(&d, w, "a", "cuda", 0), "on one worker");
    gpl_decision_release(&d);
}

static void test_require_backend(void **state)
{
    (void)state;
    gpl_device host[2] = {server[0], server[1]};
    host[1].backend_available = 0;
    snprintf(host[1].backend_reason, sizeof host[1].backend_reason,
             "this library was built without the cuda backend");
    gpl_worker w[1] = {worker("host", host, 2)};
    gpl_place_options opt = {.require_backend = 1};
    gpl_request r = req("auto");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 1, &opt, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "cpu");
    assert_contains(reason_for(&d, w, "host", "cuda", 0), "built without the cuda backend");
    gpl_decision_release(&d);
    /* Any program may still use it. */
    assert_int_equal(gpl_place(&r, w, 1, NULL, &d), GPULAYER_OK);
    assert_string_equal(d.accelerator, "cuda");
    gpl_decision_release(&d);
}

static void test_no_devices(void **state)
{
    (void)state;
    gpl_request r = req("auto");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, NULL, 0, NULL, &d), GPULAYER_ERR_PLACEMENT);
    assert_contains(d.why, "no devices were found");
    gpl_decision_release(&d);
}

static void test_renderings(void **state)
{
    (void)state;
    gpl_worker w[2] = {worker("mac", mac, 2), worker("server", server, 3)};
    gpl_request r = req("cuda,nproc=2");
    gpl_decision d;
    assert_int_equal(gpl_place(&r, w, 2, NULL, &d), GPULAYER_OK);
    char *text = gpl_decision_text(&d, w, 2, NULL);
    assert_contains(text, "placed: cuda requested: 2 ranks on 2 cuda devices");
    assert_contains(text, "server/cuda:0");
    assert_contains(text, "chosen for rank 0");
    assert_contains(text, "mac/mps:0");
    free(text);
    char *json = gpl_decision_json(&d, w, 2, NULL);
    assert_contains(json, "\"placed\":\ttrue");
    assert_contains(json, "\"stable_id\":\t\"cuda-0-uuid\"");
    assert_contains(json, "\"job\":\t\"distributed\"");
    free(json);
    gpl_decision_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_job_never_lands_on_mps),
        cmocka_unit_test(test_mps_job_never_lands_on_cuda),
        cmocka_unit_test(test_dedicated_excludes_unified),
        cmocka_unit_test(test_unified_request),
        cmocka_unit_test(test_memory_too_small),
        cmocka_unit_test(test_capabilities),
        cmocka_unit_test(test_distributed_mps_rejected),
        cmocka_unit_test(test_distributed_cpu_accepted),
        cmocka_unit_test(test_distributed_gpus_one_per_rank),
        cmocka_unit_test(test_auto_preference_order),
        cmocka_unit_test(test_most_usable_memory_and_index),
        cmocka_unit_test(test_independent_devices_stay_on_one_worker),
        cmocka_unit_test(test_require_backend),
        cmocka_unit_test(test_no_devices),
        cmocka_unit_test(test_renderings),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
