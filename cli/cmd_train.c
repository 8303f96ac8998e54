/* cmd_train.c -- `gpulayer train`: train a model on a data file. */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"
#include "train_history.h"
#include "cli_file.h"

#define MAX_VALID 16

typedef struct train_options {
    const char *data, *label, *format, *weight, *ignore, *model;
    const char *report; /* --report: the HTML page to write, or NULL */
    const char *model_in; /* continued training: the model to add rounds to */
    const char *base_margin; /* base margins of --data's rows */
    int no_header;
    int bad_numbers;
    char **categorical; /* --categorical, split */
    char **numeric;     /* --numeric, split */
    const char *valid[MAX_VALID];
    int num_valid;
    const char *qid, *group;          /* query groups of --data (and --qid: --valid) */
    const char *valid_group[MAX_VALID]; /* the group file of the i-th --valid */
    int num_valid_group;
    int quiet, verbose;
    const char *dist;     /* auto, on, off */
    double dist_timeout;  /* seconds; 0 = default */
    gpulayer_booster *booster;
    char *owned[256]; /* config-file strings, freed at exit */
    int num_owned;
} train_options;

static void train_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer train --data FILE [options]\n"
"\n"
"Trains gradient-boosted trees and saves the model as JSON.\n"
"\n"
"data:\n"
"  --data FILE          training data: CSV, TSV (optionally .gz) or LibSVM\n"
"  --label COL          label column name or 0-based index (default: first);\n"
"                       numbers, or class names (sorted: codes 0..K-1, saved\n"
"                       in the model; multi:* takes num_class from them)\n"
"  --format F           auto (by extension), csv, tsv or libsvm\n"
"  --no-header          the CSV/TSV file has no header row\n"
"  --weight COL         per-row weight column\n"
"  --qid COL            query id column (ranking; CSV/TSV, also read from\n"
"                       every --valid set): rows of one query together, ids\n"
"                       non-decreasing, as XGBoost. LibSVM files give qid:N\n"
"                       tokens instead. Not a feature\n"
"  --group FILE         query group sizes of --data, one a line (LightGBM's\n"
"                       query file; any format); they must add up to the\n"
"                       row count\n"
"  --ignore A,B         columns to leave out\n"
"  --categorical A,B    columns to read as categorical even where their cells\n"
"                       are numbers (config key categorical or\n"
"                       categorical_columns)\n"
"  --numeric A,B        columns to read as numbers even where many cells are\n"
"                       text: such a cell is an error, or missing with\n"
"                       --bad-numbers missing (config key numeric_columns)\n"
"  --bad-numbers B      a cell that is not a number in a numeric column:\n"
"                       error (default) or missing (read as a missing value;\n"
"                       one warning gives the count). A CSV/TSV column counts\n"
"                       as numeric when at least 95%% of its non-missing cells\n"
"                       are numbers; other columns holding text are\n"
"                       categorical\n"
"  --valid FILE         evaluation set (repeatable; metrics are printed every\n"
"                       round; early stopping uses the last). Its columns are\n"
"                       matched to the training data's by name when both have\n"
"                       a header (a missing or extra column is an error), and\n"
"                       its categories map through the training dictionary\n"
"  --valid-group FILE   group sizes of a --valid set (repeatable: the i-th\n"
"                       belongs to the i-th --valid)\n"
"  --base-margin FILE   each --data row's starting margin in place of the\n"
"                       base score (XGBoost's base_margin): one line a row,\n"
"                       one value (or one an output, comma-separated)\n"
"model and device:\n"
"  --model FILE         where to save the model (default: model.json)\n"
"  --report FILE        also write an HTML page on the training: learning\n"
"                       curves of every --valid set and metric, feature\n"
"                       importance (gain), parameters, device, time and\n"
"                       peak memory; self-contained (opens offline). Its\n"
"                       folder is checked before training, as --model's;\n"
"                       a report that then cannot be written is an error\n"
"                       after the model is saved\n"
"  --model-in FILE      continue training this model: its cuts, base score\n"
"                       and trees are kept and --num-round rounds added (50\n"
"                       and then 50 more give the model of 100 in one go);\n"
"                       the data must have its features\n"
"  --device D           auto, cpu, cuda[:N], mps, vulkan (default: auto)\n"
"  --nthread N          CPU threads (default: all cores)\n"
"training (XGBoost's parameter names):\n"
"  --objective O        an objective below (default reg:squarederror)\n"
"  --num-round N        boosting rounds (default 10)\n"
"  --eta X              learning rate (default 0.3)\n"
"  --max-depth N        (default 6)\n"
"  --early-stopping N   stop when the last metric of the last --valid set\n"
"                       has not improved for N rounds\n"
"  --param KEY=VALUE    any parameter of the list below (repeatable;\n"
"                       eval_metric may be given several times)\n"
"  --config FILE        'key = value' lines: any parameter, or data, label,\n"
"                       format, weight, ignore, categorical, numeric_columns,\n"
"                       bad_numbers,\n"
"                       qid, group, valid, valid_group, model, report; flags\n"
"                       given on the command line win\n");
    fprintf(out,
"objectives (docs/objectives.md; their parameters in the list below):\n"
"  reg:squarederror     squared error (default)\n"
"  reg:squaredlogerror  squared error of log(1 + prediction); labels > -1\n"
"  reg:pseudohubererror pseudo-Huber error; huber_slope\n"
"  reg:absoluteerror    absolute error; leaves refit to the residuals' median\n"
"  reg:quantileerror    pinball loss; quantile_alpha, or a list [0.1,0.5,0.9]\n"
"                       for one output per quantile; leaves refit to the\n"
"                       residuals' quantile\n"
"  reg:expectileerror   asymmetric squared error; expectile_alpha, or a list\n"
"                       for one output per expectile, never crossing\n"
"  survival:cox         Cox proportional hazards; labels are times, negative\n"
"                       when censored; prediction exp(margin)\n"
"  count:poisson        Poisson, prediction exp(margin); labels >= 0;\n"
"                       max_delta_step\n"
"  reg:gamma            gamma, prediction exp(margin); labels > 0\n"
"  reg:tweedie          Tweedie, prediction exp(margin); labels >= 0;\n"
"                       tweedie_variance_power\n"
"  reg:logistic         logistic, prediction a probability; labels in [0, 1]\n"
"  binary:logistic      the same, with logloss as default metric\n"
"  binary:logitraw      logistic, prediction the margin\n"
"  binary:hinge         hinge loss, prediction 0 or 1; labels 0 or 1\n"
"  multi:softprob       softmax, class probabilities; num_class\n"
"  multi:softmax        softmax, the class index; num_class\n"
"  rank:ndcg            LambdaMART for NDCG over query groups (--qid or\n"
"                       --group; docs/ranking.md); labels are grades 0..31\n"
"  rank:pairwise        LambdaMART with RankNet's pairwise loss\n"
"  rank:map             LambdaMART for MAP; labels 0 or 1; the lambdarank_*\n"
"                       parameters\n"
"metrics (eval_metric): rmse, rmsle, mae, mape, mphe, logloss, error,\n"
"  error@t, auc, aucpr, mlogloss, merror, poisson-nloglik, gamma-nloglik,\n"
"  gamma-deviance, tweedie-nloglik@rho, quantile, ndcg, ndcg@k, map, map@k,\n"
"  pre, pre@k; default: the objective's as XGBoost chooses it\n"
"  (docs/objectives.md); with a trailing '-' (ndcg-, map@5-) a query with\n"
"  nothing relevant scores 0 rather than 1 (docs/metrics.md)\n"
"parameters (--param KEY=VALUE or config keys; 'gpulayer params' gives their\n"
"types, allowed values and aliases; docs/parameters.md):\n");
    cli_print_param_list(out);
    fprintf(out,
"distributed (data-parallel over MPI, CPU ranks):\n"
"  --dist M             auto (default: on when started by mpirun, srun or\n"
"                       gpulayer run --nproc), on or off\n"
"  --dist-timeout S     stop when other ranks do not answer within S seconds\n"
"                       (default 300, or GPULAYER_DIST_TIMEOUT)\n"
"                       Each rank reads --data, and trains on rows\n"
"                       [r*n/N, (r+1)*n/N); or, when the path holds %%d, its own\n"
"                       file with %%d replaced by the rank. --valid sets are\n"
"                       read whole by every rank. Rank 0 prints and saves.\n"
"                       With query groups a slice must hold whole queries\n"
"                       (else refused); a --group path may hold %%d too\n"
"output:\n"
"  --quiet              no progress output\n"
"  --verbose            also print the device placement and memory, and\n"
"                       after training the first tree's splits to depth 3\n"
"\n"
"example:\n"
"  gpulayer train --data data/demo/fertility_train.csv.gz --label morekids \\\n"
"      --valid data/demo/fertility_test.csv.gz --objective binary:logistic \\\n"
"      --param eval_metric=auc --num-round 100 --model model.json\n");
}

/* The training parameter categorical (partition, ordered, ordered:COLS),
 * as opposed to the list of columns to read as categorical. */
static int is_split_choice(const char *value)
{
    return !strcmp(value, "partition") || !strcmp(value, "ordered") ||
           !strncmp(value, "ordered:", 8);
}

/* The first tree's splits down to depth 3, categories by name: a glance
 * at what the model learned. */
static void print_first_tree(const gpulayer_booster *b)
{
    char *text = NULL;
    if (gpulayer_booster_num_trees(b) < 1 ||
        gpulayer_booster_dump_tree(b, 0, 0, 3, &text, NULL) != GPULAYER_OK)
        return;
    fprintf(stderr, "first tree, to depth 3 ('gpulayer dump' prints every tree):\n%s",
            text);
    gpulayer_free_buffer(text);
}

static int set_option(train_options *o, const char *key, const char *value)
{
    if (!strcmp(key, "data")) o->data = value;
    else if (!strcmp(key, "label")) o->label = value;
    else if (!strcmp(key, "format")) o->format = value;
    else if (!strcmp(key, "weight")) o->weight = value;
    else if (!strcmp(key, "ignore")) o->ignore = value;
    else if (!strcmp(key, "model")) o->model = value;
    else if (!strcmp(key, "report")) o->report = value;
    else if (!strcmp(key, "qid")) o->qid = value;
    else if (!strcmp(key, "group")) o->group = value;
    else if (!strcmp(key, "valid_group")) {
        if (o->num_valid_group >= MAX_VALID) {
            fprintf(stderr, "gpulayer train: at most %d --valid-group files\n", MAX_VALID);
            return 2;
        }
        o->valid_group[o->num_valid_group++] = value;
    }
    else if (!strcmp(key, "bad_numbers")) return cli_parse_bad_numbers("train", value, &o->bad_numbers);
    /* categorical=partition|ordered[:COLS] is the library's parameter (how
     * categorical features are split); any other value lists columns. */
    else if ((!strcmp(key, "categorical") && !is_split_choice(value)) ||
             !strcmp(key, "categorical_columns")) {
        free(o->categorical);
        if (!(o->categorical = cli_split_list(value))) {
            fprintf(stderr, "gpulayer train: out of memory\n");
            return 1;
        }
    }
    else if (!strcmp(key, "numeric_columns")) {
        free(o->numeric);
        if (!(o->numeric = cli_split_list(value))) {
            fprintf(stderr, "gpulayer train: out of memory\n");
            return 1;
        }
    }
    else if (!strcmp(key, "no_header")) o->no_header = !strcmp(value, "1") || !strcmp(value, "true");
    else if (!strcmp(key, "valid")) {
        if (o->num_valid >= MAX_VALID) {
            fprintf(stderr, "gpulayer train: at most %d --valid sets\n", MAX_VALID);
            return 2;
        }
        o->valid[o->num_valid++] = value;
    } else if (gpulayer_booster_set_param(o->booster, key, value) != GPULAYER_OK) {
        cli_fail("train", NULL);
        return 2;
    }
    return 0;
}

static int apply_config_pair(const char *key, const char *value, void *user)
{
    /* Config values must outlive the file buffer. */
    train_options *o = user;
    if (o->num_owned + 2 > (int)(sizeof o->owned / sizeof o->owned[0])) {
        fprintf(stderr, "gpulayer train: too many lines in the config file\n");
        return 2;
    }
    char *k = strdup(key), *v = strdup(value);
    o->owned[o->num_owned++] = k;
    o->owned[o->num_owned++] = v;
    if (!k || !v) return 1;
    return set_option(o, k, v);
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct progress {
    double start;
    int first_round; /* rounds of the --model-in model */
    int total_rounds;
    int tty;
    int quiet;
    train_history *history; /* kept for --report, or NULL */
    int history_failed;     /* out of memory keeping it */
} progress;

static int on_round(void *user, int round, const gpulayer_eval_result *res, int n)
{
    progress *p = user;
    if (interrupted) return 2;
    if (p->history && !p->history_failed && train_history_add(p->history, round, res, n))
        p->history_failed = 1;
    if (p->quiet) return 0;
    double elapsed = cli_now() - p->start;
    int done = round + 1 - p->first_round;
    double eta = elapsed / done * (p->total_rounds - done);
    int every = p->total_rounds >= 20 ? p->total_rounds / 10 : 1;
    if (!p->tty && n == 0 && done % every != 0 && done != p->total_rounds) return 0;
    char line[1024];
    int len = snprintf(line, sizeof line, "[%d/%d]", p->first_round + done,
                       p->first_round + p->total_rounds);
    for (int i = 0; i < n && len < (int)sizeof line - 64; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %s-%s:%.6f",
                        res[i].data_name, res[i].metric_name, res[i].value);
    snprintf(line + len, sizeof line - (size_t)len, "  elapsed %.1fs  eta %.1fs",
             elapsed, eta);
    if (p->tty) fprintf(stderr, "\r\033[K%s%s", line, done == p->total_rounds ? "\n" : "");
    else fprintf(stderr, "%s\n", line);
    return 0;
}

static int parse_args(int argc, char **argv, train_options *o)
{
    enum { OPT_NUM_ROUND = 256, OPT_MAX_DEPTH, OPT_EARLY, OPT_CONFIG, OPT_NO_HEADER,
           OPT_DIST, OPT_DIST_TIMEOUT, OPT_CATEGORICAL, OPT_BAD_NUMBERS, OPT_QID,
           OPT_GROUP, OPT_VALID_GROUP, OPT_MODEL_IN, OPT_BASE_MARGIN, OPT_REPORT,
           OPT_NUMERIC };
    static const struct option longopts[] = {
        {"data", required_argument, 0, 'd'},   {"label", required_argument, 0, 'l'},
        {"format", required_argument, 0, 'f'}, {"weight", required_argument, 0, 'w'},
        {"ignore", required_argument, 0, 'i'}, {"valid", required_argument, 0, 'v'},
        {"model", required_argument, 0, 'm'},  {"device", required_argument, 0, 'D'},
        {"nthread", required_argument, 0, 'n'}, {"objective", required_argument, 0, 'o'},
        {"num-round", required_argument, 0, OPT_NUM_ROUND},
        {"eta", required_argument, 0, 'e'},
        {"max-depth", required_argument, 0, OPT_MAX_DEPTH},
        {"early-stopping", required_argument, 0, OPT_EARLY},
        {"param", required_argument, 0, 'p'}, {"config", required_argument, 0, OPT_CONFIG},
        {"no-header", no_argument, 0, OPT_NO_HEADER},
        {"dist", required_argument, 0, OPT_DIST},
        {"dist-timeout", required_argument, 0, OPT_DIST_TIMEOUT},
        {"categorical", required_argument, 0, OPT_CATEGORICAL},
        {"numeric", required_argument, 0, OPT_NUMERIC},
        {"bad-numbers", required_argument, 0, OPT_BAD_NUMBERS},
        {"qid", required_argument, 0, OPT_QID},
        {"group", required_argument, 0, OPT_GROUP},
        {"valid-group", required_argument, 0, OPT_VALID_GROUP},
        {"model-in", required_argument, 0, OPT_MODEL_IN},
        {"base-margin", required_argument, 0, OPT_BASE_MARGIN},
        {"report", required_argument, 0, OPT_REPORT},
        {"quiet", no_argument, 0, 'q'},       {"verbose", no_argument, 0, 'V'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    /* The config file is read first so that flags override it. */
    for (int i = 1; i < argc - 1; i++)
        if (!strcmp(argv[i], "--config")) {
            int rc = cli_read_config("train", argv[i + 1], apply_config_pair, o);
            if (rc) return rc;
        }
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:l:f:w:i:v:m:D:n:o:e:p:qVh", longopts, NULL)) != -1) {
        int rc = 0;
        char *key, *value;
        switch (c) {
        case 'd': o->data = optarg; break;
        case 'l': o->label = optarg; break;
        case 'f': o->format = optarg; break;
        case 'w': o->weight = optarg; break;
        case 'i': o->ignore = optarg; break;
        case 'm': o->model = optarg; break;
        case 'v': rc = set_option(o, "valid", optarg); break;
        case 'D': rc = set_option(o, "device", optarg); break;
        case 'n': rc = set_option(o, "nthread", optarg); break;
        case 'o': rc = set_option(o, "objective", optarg); break;
        case 'e': rc = set_option(o, "eta", optarg); break;
        case OPT_NUM_ROUND: rc = set_option(o, "num_round", optarg); break;
        case OPT_MAX_DEPTH: rc = set_option(o, "max_depth", optarg); break;
        case OPT_EARLY: rc = set_option(o, "early_stopping_rounds", optarg); break;
        case OPT_CONFIG: break;
        case OPT_NO_HEADER: o->no_header = 1; break;
        case OPT_CATEGORICAL: rc = set_option(o, "categorical_columns", optarg); break;
        case OPT_NUMERIC: rc = set_option(o, "numeric_columns", optarg); break;
        case OPT_BAD_NUMBERS: rc = set_option(o, "bad_numbers", optarg); break;
        case OPT_QID: rc = set_option(o, "qid", optarg); break;
        case OPT_GROUP: rc = set_option(o, "group", optarg); break;
        case OPT_VALID_GROUP: rc = set_option(o, "valid_group", optarg); break;
        case OPT_MODEL_IN: o->model_in = optarg; break;
        case OPT_BASE_MARGIN: o->base_margin = optarg; break;
        case OPT_REPORT: o->report = optarg; break;
        case OPT_DIST:
            if (strcmp(optarg, "auto") && strcmp(optarg, "on") && strcmp(optarg, "off")) {
                fprintf(stderr, "gpulayer train: --dist expects auto, on or off\n");
                return 2;
            }
            o->dist = optarg;
            break;
        case OPT_DIST_TIMEOUT:
        {
            /* The whole text a finite number of seconds: atof took "12x" as
             * 12 and "inf" as never. */
            char *end = NULL;
            o->dist_timeout = strtod(optarg, &end);
            if (end == optarg || *end || isspace((unsigned char)optarg[0]) ||
                !isfinite(o->dist_timeout) || !(o->dist_timeout > 0)) {
                fprintf(stderr, "gpulayer train: --dist-timeout expects seconds > 0, got "
                                "'%s'\n", optarg);
                return 2;
            }
            break;
        }
        case 'p':
            if (!cli_split_key_value(optarg, &key, &value)) {
                fprintf(stderr, "gpulayer train: --param expects KEY=VALUE, got '%s'\n", optarg);
                return 2;
            }
            rc = set_option(o, key, value);
            break;
        case 'q': o->quiet = 1; break;
        case 'V': o->verbose = 1; break;
        case 'h': train_usage(stdout); return -1;
        default: train_usage(stderr); return 2;
        }
        if (rc) return rc;
    }
    if (optind < argc) {
        fprintf(stderr, "gpulayer train: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o->data) {
        fprintf(stderr, "gpulayer train: --data is required (see --help)\n");
        return 2;
    }
    if (o->num_valid_group > o->num_valid) {
        fprintf(stderr, "gpulayer train: %d --valid-group files for %d --valid sets; the "
                        "i-th --valid-group belongs to the i-th --valid\n",
                o->num_valid_group, o->num_valid);
        return 2;
    }
    return cli_check_format("train", o->format);
}

/* How to read --data (group: its group file) or a --valid set (its
 * --valid-group, or NULL). */
static cli_data data_options(const train_options *o, int num_features, const char *group)
{
    cli_data d = {.format = o->format, .label = o->label, .weight = o->weight,
                  .ignore = o->ignore, .no_header = o->no_header,
                  .bad_numbers = o->bad_numbers,
                  .categorical = (const char *const *)o->categorical,
                  .numeric = (const char *const *)o->numeric,
                  .num_features = num_features, .qid = o->qid, .group = group};
    return d;
}

/* ", in N query groups" for the load message, or "" without groups. */
static const char *query_count(const gpulayer_dataset *ds)
{
    static char text[64];
    int64_t n = gpulayer_dataset_num_groups(ds);
    text[0] = '\0';
    if (n > 0) snprintf(text, sizeof text, ", %lld query groups", (long long)n);
    return text;
}

/* ------------------------------------------------------------ ranks */

/* Whether this run joins a distributed job; 0 with *rc set on a refusal. */
static int want_dist(const train_options *o, int *rc)
{
    *rc = 0;
    const char *mode = o->dist ? o->dist : "auto";
    if (!strcmp(mode, "off")) return 0;
    if (!strcmp(mode, "auto") && !gpulayer_dist_launched()) return 0;
    if (!gpulayer_dist_built()) {
        /* N copies training alone would race to write one model file. */
        fprintf(stderr, "gpulayer train: %s, but this gpulayer was built without MPI; "
                        "rebuild with MPI (Debian: libopenmpi-dev) or pass --dist off "
                        "to train one model in every process\n",
                !strcmp(mode, "on") ? "--dist on was given" : "started by an MPI launcher");
        *rc = 1;
        return 0;
    }
    return 1;
}

/* When the launcher ends this rank because another one failed (Open MPI's
 * mpirun sends SIGTERM to the survivors), say so instead of vanishing. */
static char term_message[160];
static size_t term_length; /* measured beforehand: the handler only writes */
static void on_sigterm(int sig)
{
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, term_message, term_length);
    (void)ignored;
    _exit(143);
}

static void install_sigterm(int rank)
{
    snprintf(term_message, sizeof term_message,
             "gpulayer train: rank %d: stopped by the launcher (another rank failed, "
             "or the job was cancelled); no model written\n", rank);
    term_length = strlen(term_message);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigterm;
    sigaction(SIGTERM, &sa, NULL);
}

/* Reads this rank's training rows: its own file when --data holds %d, else
 * its slice of the one file (every rank reads it whole). */
static gpulayer_status read_shard(const train_options *o, int rank, int size,
                                  gpulayer_dataset **out, char **path_out)
{
    int pattern = gpulayer_dist_is_shard_pattern(o->data);
    gpulayer_status st = gpulayer_dist_shard_path(o->data, rank, path_out);
    /* A rank's own data file has its own group file: %d there too. */
    char *group = NULL;
    if (st == GPULAYER_OK && o->group && pattern)
        st = gpulayer_dist_shard_path(o->group, rank, &group);
    cli_data d = data_options(o, 0, group ? group : o->group);
    d.base_margin = o->base_margin; /* whole-file rows: sliced with them */
    if (st == GPULAYER_OK) st = cli_read_data(*path_out, &d, out);
    gpulayer_free_buffer(group);
    if (st == GPULAYER_OK && !pattern && size > 1) st = gpulayer_dist_keep_slice(*out);
    return st;
}

/* "rank R/N: ROWS rows from FILE, global rows FIRST..": every rank, so a
 * run's log says which rows each one trained on. */
static void report_shard(const gpulayer_dataset *train, const char *path)
{
    int size = gpulayer_dist_size(), rank = gpulayer_dist_rank();
    int64_t rows = gpulayer_dataset_num_rows(train), first = 0, total = 0;
    if (gpulayer_dist_row_place(rows, &first, &total) != GPULAYER_OK) return;
    fprintf(stderr, "rank %d/%d: %lld rows from %s, first global row %lld of %lld\n",
            rank, size, (long long)rows, path, (long long)first, (long long)total);
}

/* A failure every rank knows of is reported once, by rank 0; one that
 * only this rank knows of must end the job, or the others would wait. */
static int fail_ranks(int dist, const char *what)
{
    if (dist && !gpulayer_dist_failure_shared() && gpulayer_dist_size() > 1) {
        char message[1200];
        snprintf(message, sizeof message, "%s%s%s", what ? what : "",
                 what ? ": " : "", gpulayer_last_error());
        gpulayer_dist_abort(message, 1);
    }
    if (!dist || gpulayer_dist_rank() == 0) return cli_fail("train", what);
    return 1;
}

static int check_outputs(const train_options *o)
{
    cli_path outputs[] = {{"--model", o->model}, {"--report", o->report}};
    cli_path inputs[2 * MAX_VALID + 4] = {{"--data", o->data}, {"--model-in", o->model_in},
                                          {"--group", o->group},
                                          {"--base-margin", o->base_margin}};
    int n = 4;
    for (int i = 0; i < o->num_valid; i++) inputs[n++] = (cli_path){"--valid", o->valid[i]};
    for (int i = 0; i < o->num_valid_group; i++)
        inputs[n++] = (cli_path){"--valid-group", o->valid_group[i]};
    return cli_check_outputs("train", outputs, 2, inputs, n);
}

/* The --report page, by rank 0 after the model is saved. */
static int write_report(const train_options *o, const progress *prog, const char *command,
                        const gpulayer_dataset *train, const gpulayer_dataset *const *valid,
                        double train_seconds, int ranks)
{
    if (prog->history_failed) {
        fprintf(stderr, "gpulayer train: --report %s: out of memory keeping every round's "
                        "metrics; no report written\n", o->report);
        return 1;
    }
    const train_history *h = prog->history;
    const gpulayer_report_info r = {command,
                                    o->data,
                                    train,
                                    valid,
                                    o->valid,
                                    o->num_valid,
                                    o->model,
                                    train_seconds,
                                    ranks,
                                    h->num_series,
                                    h->num_rounds,
                                    h->first_round,
                                    (const char *const *)h->data_names,
                                    (const char *const *)h->metric_names,
                                    h->values};
    if (gpulayer_report_write(o->report, o->booster, &r) != GPULAYER_OK) {
        char what[1100];
        snprintf(what, sizeof what, "--report %s", o->report);
        return cli_fail("train", what);
    }
    if (!prog->quiet) fprintf(stderr, "report written to %s\n", o->report);
    return 0;
}

int cmd_train(int argc, char **argv)
{
    train_options o;
    memset(&o, 0, sizeof o);
    o.model = "model.json";
    /* Before getopt reorders argv: the report shows the command as typed. */
    char command[2048];
    cli_join_command("gpulayer", argc, argv, command, sizeof command);
    if (gpulayer_booster_create(&o.booster) != GPULAYER_OK) return cli_fail("train", NULL);
    int rc = parse_args(argc, argv, &o);
    int dist = rc ? 0 : want_dist(&o, &rc);
    if (rc) {
        gpulayer_booster_free(o.booster);
        free(o.categorical);
        free(o.numeric);
        for (int i = 0; i < o.num_owned; i++) free(o.owned[i]);
        return rc < 0 ? 0 : rc;
    }
    if (!dist && gpulayer_dist_is_shard_pattern(o.data)) {
        fprintf(stderr, "gpulayer train: --data %s names one file per rank, but this is "
                        "not a distributed run (start it with mpirun or gpulayer run "
                        "--nproc N)\n", o.data);
        gpulayer_booster_free(o.booster);
        free(o.categorical);
        free(o.numeric);
        for (int i = 0; i < o.num_owned; i++) free(o.owned[i]);
        return 2;
    }
    if (dist && gpulayer_dist_init(o.dist_timeout) != GPULAYER_OK) {
        rc = cli_fail("train", "joining the distributed job");
        gpulayer_booster_free(o.booster);
        free(o.categorical);
        free(o.numeric);
        for (int i = 0; i < o.num_owned; i++) free(o.owned[i]);
        return rc;
    }
    const int rank = gpulayer_dist_rank(), size = gpulayer_dist_size();
    if (dist) {
        install_sigterm(rank);
        char threads[32] = "0";
        gpulayer_booster_get_param(o.booster, "nthread", threads, sizeof threads);
        if (atoi(threads) <= 0) {
            snprintf(threads, sizeof threads, "%d", gpulayer_dist_default_threads());
            gpulayer_booster_set_param(o.booster, "nthread", threads);
        }
    }
    /* Rank 0 speaks for the job; the others only report their shard. */
    const int quiet = o.quiet || rank != 0;
    if (o.verbose) gpulayer_booster_set_param(o.booster, "verbosity", "2");
    double t0 = cli_now();
    gpulayer_dataset *train = NULL, *valid[MAX_VALID] = {0};
    const char *names[MAX_VALID];
    char *train_path = NULL;
    train_history history;
    memset(&history, 0, sizeof history);
    /* The outputs are checked before any work, by rank 0, which writes
     * them: a folder missing or an input named as an output is found now,
     * not after the training. */
    if (rank == 0) rc = check_outputs(&o);
    if (dist && gpulayer_dist_agree(rc ? GPULAYER_ERR_INVALID_ARGUMENT : GPULAYER_OK) !=
                    GPULAYER_OK && !rc)
        rc = 2;
    if (rc) goto done;
    gpulayer_status st = read_shard(&o, rank, size, &train, &train_path);
    /* Validation labels that are class names must mean what they mean in
     * the training data, whose classes they may not all have. */
    int oom = 0;
    const char **classes = st == GPULAYER_OK ? cli_class_names(NULL, train, &oom) : NULL;
    if (oom) st = GPULAYER_ERR_OUT_OF_MEMORY;
    for (int i = 0; st == GPULAYER_OK && i < o.num_valid; i++) {
        names[i] = o.num_valid == 1 ? "valid" : o.valid[i];
        cli_data d = data_options(&o, gpulayer_dataset_num_cols(train),
                                  i < o.num_valid_group ? o.valid_group[i] : NULL);
        d.label_classes = classes;
        st = cli_read_data(o.valid[i], &d, &valid[i]);
    }
    free(classes);
    /* A rank that could not read its data fails every rank, with its
     * message, before any training starts. */
    if (dist) st = gpulayer_dist_agree(st);
    if (st != GPULAYER_OK) {
        rc = fail_ranks(dist, NULL);
        goto done;
    }
    if (dist && !o.quiet) report_shard(train, train_path);
    if (!quiet)
        fprintf(stderr, "loaded %s: %lld rows x %d features%s (%.2fs)\n", o.data,
                (long long)gpulayer_dataset_num_rows(train),
                gpulayer_dataset_num_cols(train), query_count(train), cli_now() - t0);
    int first_round = 0;
    if (o.model_in) {
        gpulayer_booster *init = NULL;
        st = gpulayer_booster_load(o.model_in, &init);
        if (st == GPULAYER_OK) st = gpulayer_booster_set_init_model(o.booster, init);
        if (st == GPULAYER_OK) first_round = gpulayer_booster_num_rounds(init);
        gpulayer_booster_free(init);
        if (st != GPULAYER_OK) {
            rc = cli_fail("train", o.model_in);
            goto done;
        }
    }
    char rounds_text[32] = "0";
    gpulayer_booster_get_param(o.booster, "num_round", rounds_text, sizeof rounds_text);
    progress prog = {cli_now(), first_round, atoi(rounds_text), isatty(STDERR_FILENO), quiet,
                     o.report ? &history : NULL, 0};
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old);
    /* With --report the training rows are evaluated too, first (early
     * stopping watches the last set, as XGBoost's), for the report's
     * training curve; not when they would be the only set early stopping
     * could watch, nor on a shard of a distributed job. */
    const gpulayer_dataset *evals[MAX_VALID + 1];
    const char *eval_names[MAX_VALID + 1];
    int num_evals = 0;
    char stopping[32] = "0";
    gpulayer_booster_get_param(o.booster, "early_stopping_rounds", stopping, sizeof stopping);
    if (o.report && !dist && (o.num_valid > 0 || atoi(stopping) <= 0)) {
        evals[num_evals] = train;
        eval_names[num_evals++] = "train";
    }
    for (int i = 0; i < o.num_valid; i++) {
        evals[num_evals] = valid[i];
        eval_names[num_evals++] = names[i];
    }
    st = (dist ? gpulayer_booster_train_distributed : gpulayer_booster_train)(
        o.booster, train, evals, eval_names, num_evals, on_round, &prog);
    const double train_seconds = cli_now() - prog.start;
    sigaction(SIGINT, &old, NULL);
    if (st == GPULAYER_ERR_INTERRUPTED) {
        if (rank == 0) fprintf(stderr, "\ngpulayer train: interrupted; no model written\n");
        rc = 130;
        goto done;
    }
    if (st != GPULAYER_OK) {
        rc = fail_ranks(dist, NULL);
        goto done;
    }
    /* Every rank holds the same model; rank 0 alone writes it. */
    st = rank == 0 ? gpulayer_booster_save(o.booster, o.model) : GPULAYER_OK;
    if (dist) st = gpulayer_dist_agree(st);
    if (st != GPULAYER_OK) {
        rc = fail_ranks(dist, NULL);
        goto done;
    }
    if (!quiet) {
        int best = gpulayer_booster_best_round(o.booster);
        fprintf(stderr, "trained %d rounds in %.2fs", gpulayer_booster_num_rounds(o.booster),
                cli_now() - prog.start);
        if (size > 1) {
            double train_s = cli_now() - prog.start, comm = gpulayer_dist_comm_seconds();
            fprintf(stderr, " on %d ranks (rank 0 spent %.2fs, %.0f%%, in collectives)",
                    size, comm, train_s > 0 ? 100.0 * comm / train_s : 0.0);
        }
        if (best >= 0) fprintf(stderr, " (best round %d)", best + 1);
        fprintf(stderr, "; model saved to %s\n", o.model);
        if (o.verbose) print_first_tree(o.booster);
    }
    /* After the model is saved: a report that fails loses nothing. */
    if (o.report && rank == 0)
        rc = write_report(&o, &prog, command, train, (const gpulayer_dataset *const *)valid,
                          train_seconds, size);
done:
    train_history_free(&history);
    for (int i = 0; i < o.num_valid; i++) gpulayer_dataset_free(valid[i]);
    gpulayer_dataset_free(train);
    gpulayer_free_buffer(train_path);
    gpulayer_booster_free(o.booster);
    free(o.categorical);
    free(o.numeric);
    for (int i = 0; i < o.num_owned; i++) free(o.owned[i]);
    if (dist) {
        /* The job's outcome is reported: a launcher that ends this rank
         * while it leaves has nothing more to say. */
        signal(SIGTERM, SIG_DFL);
        gpulayer_dist_finalize();
    }
    return rc;
}
