/* probe_cpu.c -- cores, host memory and instruction-set extensions. */
#include "probe_cpu.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>
#endif
#if defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

#include "device.h"
#include "probe_parse.h"

/* CPUs this process may run on: the affinity mask is what a job gets under
 * taskset, Slurm or a container's cpuset, not the machine's total. */
static long usable_cpus(void)
{
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

static uint64_t host_memory(void)
{
#if defined(__APPLE__)
    uint64_t bytes = 0;
    size_t len = sizeof bytes;
    if (sysctlbyname("hw.memsize", &bytes, &len, NULL, 0) == 0) return bytes;
    return 0;
#else
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
#endif
}

/* Reads "Key:   1234 kB" from /proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    uint64_t bytes = 0;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, klen) && line[klen] == ':') {
            bytes = strtoull(line + klen + 1, NULL, 10) * 1024u;
            break;
        }
    fclose(f);
    return bytes;
}

static uint64_t read_u64_file(const char *path, int *ok)
{
    FILE *f = fopen(path, "r");
    char buf[64] = "";
    *ok = 0;
    if (!f) return 0;
    if (fgets(buf, sizeof buf, f) && buf[0] >= '0' && buf[0] <= '9') *ok = 1;
    fclose(f);
    return *ok ? strtoull(buf, NULL, 10) : 0;
}

/* Memory the cgroup (v2) still lets this process use, or UINT64_MAX when
 * there is no limit: in a container MemAvailable describes the host, not
 * what the job may allocate before it is killed. */
static uint64_t cgroup_headroom(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) return UINT64_MAX;
    char line[512], path[600];
    uint64_t headroom = UINT64_MAX;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) != 0) continue;
        line[strcspn(line, "\n")] = '\0';
        int ok_max, ok_cur;
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", line + 3);
        uint64_t max = read_u64_file(path, &ok_max);
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.current", line + 3);
        uint64_t cur = read_u64_file(path, &ok_cur);
        if (ok_max) headroom = ok_cur && cur < max ? max - cur : ok_cur ? 0 : max;
        break;
    }
    fclose(f);
    return headroom;
}

static uint64_t available_memory(uint64_t total)
{
    uint64_t avail = meminfo_bytes("MemAvailable");
#if defined(_SC_AVPHYS_PAGES)
    if (!avail) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) avail = (uint64_t)pages * (uint64_t)page;
    }
#endif
    if (!avail) avail = total;
    uint64_t headroom = cgroup_headroom();
    return headroom < avail ? headroom : avail;
}

static void cpu_name(char *buf, size_t size)
{
    gpl_strlcpy(buf, "CPU", size);
#if defined(__APPLE__)
    size_t len = size;
    if (sysctlbyname("machdep.cpu.brand_string", buf, &len, NULL, 0) != 0)
        gpl_strlcpy(buf, "CPU", size);
#else
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        /* x86 says "model name", many Arm kernels say nothing useful. */
        if (!strncmp(line, "model name", 10)) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t') colon++;
                colon[strcspn(colon, "\n")] = '\0';
                if (*colon) gpl_strlcpy(buf, colon, size);
            }
            break;
        }
    }
    fclose(f);
#endif
}

static void add_isa_capabilities(cJSON *caps)
{
#if defined(__x86_64__) || defined(__i386__)
    cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.x86_64"));
#if defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.avx2"));
    if (__builtin_cpu_supports("avx512f"))
        cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.avx512f"));
#endif
#elif defined(__aarch64__)
    cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.arm64"));
    cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.neon"));
#endif
#if defined(_OPENMP)
    cJSON_AddItemToArray(caps, cJSON_CreateString("cpu.openmp"));
#endif
}

char *gpl_probe_cpu_json(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "protocol", GPL_PROBE_PROTOCOL);
    cJSON_AddStringToObject(root, "runtime", "cpu");
    cJSON *dev = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "devices"), dev);
    cJSON_AddArrayToObject(root, "notes");

    char name[GPL_NAME_LEN];
    cpu_name(name, sizeof name);
    uint64_t total = host_memory();
    cJSON_AddNumberToObject(dev, "index", 0);
    cJSON_AddStringToObject(dev, "name", name);
    cJSON_AddStringToObject(dev, "stable_id", "");
    cJSON_AddStringToObject(dev, "memory_kind", "host");
    cJSON_AddNumberToObject(dev, "memory_bytes", (double)total);
    cJSON_AddNumberToObject(dev, "usable_bytes", (double)available_memory(total));
    add_isa_capabilities(cJSON_AddArrayToObject(dev, "capabilities"));
    cJSON *props = cJSON_AddObjectToObject(dev, "properties");
    char text[32];
    snprintf(text, sizeof text, "%ld", usable_cpus());
    cJSON_AddStringToObject(props, "cores", text);
    snprintf(text, sizeof text, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddStringToObject(props, "online_cpus", text);

    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}
