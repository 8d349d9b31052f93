/* SPDX-License-Identifier: MIT */
/*
 * gpustate.c - NVML through dlopen, and the per-GPU lock (see gpustate.h).
 *
 * Only NVML calls that have been stable for many driver generations are
 * used, declared here with their documented C types, so that neither
 * nvml.h nor libnvidia-ml is needed to build the grader.
 */
#include "gpulock.h"
#include "gpustate.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int nvml_ret;
typedef void *nvml_dev;

#define NVML_OK 0
#define NVML_INSUFFICIENT_SIZE 7
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0

/* Clock-event ("throttle") reasons, nvml.h's nvmlClocksEventReason*. */
#define REASON_IDLE 0x1ull
#define REASON_APP_CLOCKS 0x2ull
#define REASON_POWER_CAP 0x4ull
#define REASON_HW_SLOWDOWN 0x8ull
#define REASON_SYNC_BOOST 0x10ull
#define REASON_SW_THERMAL 0x20ull
#define REASON_HW_THERMAL 0x40ull
#define REASON_POWER_BRAKE 0x80ull
/* Those that mean the GPU was slowed against its configuration. */
#define REASONS_SLOWDOWN (REASON_HW_SLOWDOWN | REASON_SW_THERMAL | \
			  REASON_HW_THERMAL | REASON_POWER_BRAKE)

struct nvml_util {
	unsigned gpu, memory;
};

struct gpu_nvml {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	nvml_ret (*by_index)(unsigned, nvml_dev *);
	nvml_ret (*by_uuid)(const char *, nvml_dev *);
	nvml_ret (*name)(nvml_dev, char *, unsigned);
	nvml_ret (*uuid)(nvml_dev, char *, unsigned);
	nvml_ret (*driver)(char *, unsigned);
	nvml_ret (*clock)(nvml_dev, int, unsigned *);
	nvml_ret (*max_clock)(nvml_dev, int, unsigned *);
	nvml_ret (*temp)(nvml_dev, int, unsigned *);
	nvml_ret (*reasons)(nvml_dev, unsigned long long *);
	nvml_ret (*bus_width)(nvml_dev, unsigned *);
	nvml_ret (*util)(nvml_dev, struct nvml_util *);
	nvml_ret (*compute_procs)(nvml_dev, unsigned *, void *);
	nvml_ret (*graphics_procs)(nvml_dev, unsigned *, void *);
};

/* The first of names that the library exports, or NULL. */
static void *sym(void *lib, const char *a, const char *b, const char *c)
{
	void *p = dlsym(lib, a);

	if (!p && b)
		p = dlsym(lib, b);
	if (!p && c)
		p = dlsym(lib, c);
	return p;
}

/* Store a dlsym() result in a function pointer (no type punning). */
#define SET(fp, p)                                                         \
	do {                                                               \
		void *p_ = (p);                                            \
		memcpy(&(fp), &p_, sizeof(p_));                            \
	} while (0)

static int load(struct gpu_nvml *n, void *lib)
{
	n->lib = lib;
	SET(n->init, sym(lib, "nvmlInit_v2", "nvmlInit", NULL));
	SET(n->shutdown, sym(lib, "nvmlShutdown", NULL, NULL));
	SET(n->by_index, sym(lib, "nvmlDeviceGetHandleByIndex_v2",
				     "nvmlDeviceGetHandleByIndex", NULL));
	SET(n->by_uuid, sym(lib, "nvmlDeviceGetHandleByUUID", NULL, NULL));
	SET(n->name, sym(lib, "nvmlDeviceGetName", NULL, NULL));
	SET(n->uuid, sym(lib, "nvmlDeviceGetUUID", NULL, NULL));
	SET(n->driver, sym(lib, "nvmlSystemGetDriverVersion", NULL, NULL));
	SET(n->clock, sym(lib, "nvmlDeviceGetClockInfo", NULL, NULL));
	SET(n->max_clock, sym(lib, "nvmlDeviceGetMaxClockInfo", NULL, NULL));
	SET(n->temp, sym(lib, "nvmlDeviceGetTemperature", NULL, NULL));
	SET(n->reasons, sym(lib, "nvmlDeviceGetCurrentClocksEventReasons",
				    "nvmlDeviceGetCurrentClocksThrottleReasons",
				    NULL));
	SET(n->bus_width, sym(lib, "nvmlDeviceGetMemoryBusWidth", NULL, NULL));
	SET(n->util, sym(lib, "nvmlDeviceGetUtilizationRates", NULL, NULL));
	SET(n->compute_procs,
		sym(lib, "nvmlDeviceGetComputeRunningProcesses_v3",
		    "nvmlDeviceGetComputeRunningProcesses_v2",
		    "nvmlDeviceGetComputeRunningProcesses"));
	SET(n->graphics_procs,
		sym(lib, "nvmlDeviceGetGraphicsRunningProcesses_v3",
		    "nvmlDeviceGetGraphicsRunningProcesses_v2",
		    "nvmlDeviceGetGraphicsRunningProcesses"));
	/* The minimum to say anything; the rest is read where present. */
	return n->init && n->shutdown && n->by_index && n->name && n->clock ?
	       0 : -1;
}

/* The device the runners use: CUDA_VISIBLE_DEVICES' first entry, else 0. */
static nvml_ret pick(struct gpu_nvml *n, nvml_dev *dev)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	char first[96];

	if (!cvd || !*cvd)
		return n->by_index(0, dev);
	snprintf(first, sizeof(first), "%s", cvd);
	first[strcspn(first, ",")] = '\0';
	if (!strncmp(first, "GPU-", 4) && n->by_uuid)
		return n->by_uuid(first, dev);
	if (first[0] >= '0' && first[0] <= '9')
		return n->by_index((unsigned)atoi(first), dev);
	return -1; /* MIG instances and the like: not matched */
}

int gpu_open(struct gpu_state *g, const char *lib)
{
	const char *path = lib ? lib : "libnvidia-ml.so.1";
	struct gpu_nvml *n;
	void *h;

	memset(g, 0, sizeof(*g));
	g->lock_fd = -1;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		snprintf(g->why, sizeof(g->why), "NVML: %s", e ? e : path);
		return -1;
	}
	n = calloc(1, sizeof(*n));
	if (!n || load(n, h) || n->init() != NVML_OK) {
		snprintf(g->why, sizeof(g->why), "NVML in %s did not start", path);
		goto fail;
	}
	if (pick(n, &g->dev) != NVML_OK) {
		snprintf(g->why, sizeof(g->why), "NVML does not know the device "
			 "CUDA_VISIBLE_DEVICES names");
		n->shutdown();
		goto fail;
	}
	g->nvml = n;
	n->name(g->dev, g->name, sizeof(g->name));
	if (n->uuid)
		n->uuid(g->dev, g->uuid, sizeof(g->uuid));
	if (n->driver)
		n->driver(g->driver, sizeof(g->driver));
	if (n->max_clock) {
		n->max_clock(g->dev, NVML_CLOCK_SM, &g->max_sm_mhz);
		n->max_clock(g->dev, NVML_CLOCK_MEM, &g->max_mem_mhz);
	}
	if (n->bus_width)
		n->bus_width(g->dev, &g->bus_bits);
	return 0;
fail:
	free(n);
	dlclose(h);
	return -1;
}

static void nvml_close(struct gpu_state *g)
{
	if (g->nvml) {
		g->nvml->shutdown();
		dlclose(g->nvml->lib);
		free(g->nvml);
		g->nvml = NULL;
	}
}

void gpu_close(struct gpu_state *g)
{
	nvml_close(g);
	if (g->lock_fd >= 0)
		close(g->lock_fd);
	g->lock_fd = -1;
}

/* Processes on the device, by asking for none: NVML then says how many. */
static unsigned count_procs(nvml_ret (*fn)(nvml_dev, unsigned *, void *),
			    nvml_dev dev)
{
	unsigned count = 0;
	nvml_ret r;

	if (!fn)
		return 0;
	r = fn(dev, &count, NULL);
	return r == NVML_OK || r == NVML_INSUFFICIENT_SIZE ? count : 0;
}

void gpu_snapshot(struct gpu_state *g, struct gpu_snap *s)
{
	struct gpu_nvml *n = g->nvml;
	struct nvml_util u = { 0, 0 };

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	s->ok = n->clock(g->dev, NVML_CLOCK_SM, &s->sm_mhz) == NVML_OK;
	n->clock(g->dev, NVML_CLOCK_MEM, &s->mem_mhz);
	if (n->temp)
		n->temp(g->dev, NVML_TEMPERATURE_GPU, &s->temp_c);
	if (n->reasons)
		n->reasons(g->dev, &s->reasons);
	if (n->util && n->util(g->dev, &u) == NVML_OK)
		s->util = u.gpu;
	s->procs = count_procs(n->compute_procs, g->dev) +
		   count_procs(n->graphics_procs, g->dev);
}

void gpu_after_exercise(struct gpu_state *g)
{
	struct gpu_snap s;

	gpu_snapshot(g, &s);
	if (!s.ok)
		return;
	g->reasons_seen |= s.reasons;
	if (s.procs > g->procs_seen)
		g->procs_seen = s.procs;
	/* Right after a runner the GPU is still at its working clock, unless
	 * it already idles; idle readings say nothing about a slowdown. */
	if (s.reasons & REASON_IDLE)
		return;
	if (!g->min_sm_mhz || s.sm_mhz < g->min_sm_mhz)
		g->min_sm_mhz = s.sm_mhz;
	if (s.sm_mhz > g->max_seen_mhz)
		g->max_seen_mhz = s.sm_mhz;
}

/* ---- the lock ---- */

/* The GPU's id for the lock: its UUID, else the device CUDA sees. */
static void lock_id(const struct gpu_state *g, char *buf, size_t n)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");

	if (g->uuid[0])
		snprintf(buf, n, "%s", g->uuid);
	else
		snprintf(buf, n, "cuda%s", cvd && *cvd ? cvd : "0");
}

int gpu_lock(struct gpu_state *g, const char *dir, FILE *msg, int wait)
{
	char key[128], holder[32] = "";
	const char *d = dir ? dir : getenv("WB_LOCK_DIR");
	int fd;

	lock_id(g, key, sizeof(key));
	gpu_lock_path(g->lock_path, sizeof(g->lock_path), d, key);
	fd = gpu_lock_open(g->lock_path);
	if (fd < 0)
		return -1;
	if (gpu_lock_try(fd)) {
		ssize_t k = pread(fd, holder, sizeof(holder) - 1, 0);

		holder[k > 0 ? k : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		if (msg)
			fprintf(msg, "grader: another grading run is using this GPU "
				     "(%s%s, lock %s)%s\n",
				holder[0] ? "pid " : "", holder[0] ? holder : "a process",
				g->lock_path, wait ? "; waiting for it to finish..." : "");
		if (!wait) {
			close(fd);
			return 1;
		}
		while (flock(fd, LOCK_EX))
			if (errno != EINTR) {
				close(fd);
				return -1;
			}
	}
	gpu_lock_note_pid(fd);
	g->lock_fd = fd;
	return 0;
}

void gpu_begin(struct gpu_state *g)
{
	gpu_open(g, NULL);
	gpu_lock(g, NULL, stderr, 1);
	gpu_snapshot(g, &g->start);
}

/* ---- peaks and words ---- */

/* fp32 lanes per SM: 64 up to sm_80, 128 from sm_86 on. */
static int fp32_lanes(int cc)
{
	return cc <= 80 ? 64 : 128;
}

double gpu_dram_gbps(unsigned max_mem_mhz, unsigned bus_bits)
{
	/* Two transfers a clock: NVML's memory clock is half the data rate
	 * for HBM and GDDR alike (H100 SXM: 2619 MHz x 5120 bits = 3.35 TB/s). */
	return 2.0 * max_mem_mhz * 1e6 * bus_bits / 8 / 1e9;
}

double gpu_fp32_tflops(int cc, int sms, unsigned max_sm_mhz)
{
	/* An FMA is two FLOPs, one per lane per clock. */
	return cc > 0 ? 2.0 * fp32_lanes(cc) * sms * max_sm_mhz * 1e6 / 1e12 : 0;
}

void gpu_peaks(struct gpu_state *g, struct g_device *dev)
{
	if (!g->nvml)
		return;
	if (strcmp(g->name, dev->name)) {
		snprintf(g->why, sizeof(g->why), "NVML's device is %.60s, the "
			 "runners' is %.60s", g->name, dev->name);
		nvml_close(g); /* the lock stays */
		return;
	}
	dev->dram_gbps = gpu_dram_gbps(g->max_mem_mhz, g->bus_bits);
	/* Without NVML's clock, the device's own (devinfo) stays. */
	if (g->max_sm_mhz)
		dev->fp32_tflops = gpu_fp32_tflops(dev->cc, dev->sms,
						   g->max_sm_mhz);
}

static void reason_words(unsigned long long r, char *buf, size_t n)
{
	static const struct {
		unsigned long long bit;
		const char *word;
	} w[] = {
		{ REASON_IDLE, "idle" }, { REASON_APP_CLOCKS, "application clocks" },
		{ REASON_POWER_CAP, "power cap" }, { REASON_HW_SLOWDOWN, "HW slowdown" },
		{ REASON_SYNC_BOOST, "sync boost" },
		{ REASON_SW_THERMAL, "SW thermal slowdown" },
		{ REASON_HW_THERMAL, "HW thermal slowdown" },
		{ REASON_POWER_BRAKE, "power brake" },
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]) && used < n; i++)
		if (r & w[i].bit)
			used += snprintf(buf + used, n - used, "%s%s",
					 used ? ", " : "", w[i].word);
	if (!used)
		snprintf(buf, n, "none");
}

void gpu_describe(const struct gpu_snap *s, char *buf, size_t n)
{
	char why[128];

	if (!s->ok) {
		snprintf(buf, n, "not read");
		return;
	}
	reason_words(s->reasons, why, sizeof(why));
	snprintf(buf, n, "SM %u MHz, memory %u MHz, %u C, %u%% busy, clock "
			 "events: %s, other processes: %u",
		 s->sm_mhz, s->mem_mhz, s->temp_c, s->util, why, s->procs);
}

int gpu_warnings(const struct gpu_state *g, char *buf, size_t n)
{
	unsigned long long slow = (g->reasons_seen | g->start.reasons |
				   g->end.reasons) & REASONS_SLOWDOWN;
	unsigned procs = g->procs_seen > g->start.procs ? g->procs_seen :
							  g->start.procs;
	size_t used = 0;
	int k = 0;

	buf[0] = '\0';
	if (g->end.procs > procs)
		procs = g->end.procs;
	if (procs) {
		used += snprintf(buf + used, n - used, "warning: another process "
				 "was using the GPU (%u seen): its work competes "
				 "with the timed code\n", procs);
		k++;
	}
	if (g->start.ok && g->start.util > 10 && used < n) {
		used += snprintf(buf + used, n - used, "warning: the GPU was %u%% "
				 "busy before grading started\n", g->start.util);
		k++;
	}
	if (slow && used < n) {
		char why[128];

		reason_words(slow, why, sizeof(why));
		used += snprintf(buf + used, n - used, "warning: the GPU slowed "
				 "itself down during the run (%s)\n", why);
		k++;
	}
	if (g->min_sm_mhz && g->max_seen_mhz &&
	    g->min_sm_mhz < 0.9 * g->max_seen_mhz && used < n) {
		snprintf(buf + used, n - used, "warning: the SM clock fell during "
			 "the run, from %u MHz to %u MHz: speedups are ratios "
			 "taken in the same process, but compare times with care\n",
			 g->max_seen_mhz, g->min_sm_mhz);
		k++;
	}
	return k;
}

/* Append text to run->condition, and print it. */
static void note(struct g_run *run, FILE *f, const char *text)
{
	size_t used = strlen(run->condition);

	snprintf(run->condition + used, sizeof(run->condition) - used, "%s", text);
	if (f)
		fputs(text, f);
}

void gpu_report_start(struct gpu_state *g, struct g_run *run, FILE *f)
{
	char line[512], snap[320];

	if (!g->nvml) {
		snprintf(line, sizeof(line), "GPU condition: not recorded (%s)\n",
			 g->why[0] ? g->why : "no NVML");
		note(run, f, line);
	} else {
		gpu_describe(&g->start, snap, sizeof(snap));
		snprintf(line, sizeof(line), "GPU at the start: %s, driver %s; %s\n",
			 g->name, g->driver, snap);
		note(run, f, line);
	}
	if (g->lock_fd < 0) {
		snprintf(line, sizeof(line), "GPU lock: not taken (%.300s): another "
			 "grading run could share this GPU\n",
			 g->lock_path[0] ? g->lock_path : "no lock file");
		note(run, f, line);
	}
}

void gpu_report_end(struct gpu_state *g, struct g_run *run, FILE *f)
{
	char line[512], snap[320], warn[1024];

	if (!g->nvml)
		return;
	gpu_snapshot(g, &g->end);
	gpu_describe(&g->end, snap, sizeof(snap));
	snprintf(line, sizeof(line), "GPU at the end: %s\n", snap);
	note(run, f, line);
	if (gpu_warnings(g, warn, sizeof(warn)))
		note(run, f, warn);
}
