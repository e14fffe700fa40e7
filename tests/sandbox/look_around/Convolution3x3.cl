/* Red team: what a task's runner can learn of the submission and the rubric. Its own request names
 * the kernels folder and the rubric file (the runner's command line holds the request's path): the
 * kernel tries to list the folder, read the rubric, and counts the tasks of the rubric part its
 * request holds. The keeper hands the runner its task's file and rubric part in the request, so the
 * folder and the file are not in its sandbox, and the part holds one task. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "req=$(tr '\\000' '\\n' < /proc/$PPID/cmdline | tail -n 1); echo request=$req; "
    "kd=$(grep -o '\"kernels_dir\":\"[^\"]*\"' $req | cut -d'\"' -f4); "
    "rb=$(grep -o '\"rubric\":\"[^\"]*\"' $req | cut -d'\"' -f4); echo folder=$kd rubric=$rb; "
    "ls $kd > /dev/null 2>&1; echo listed=$?; "
    "head -c 64 $rb > /dev/null 2>&1; echo read=$?; "
    "echo tasks=$(grep -o '<task id' $req | wc -l)";

RED_TEAM_CONVOLUTION
