"""Variants of the messages the references' software prints, read from its source (the release
each record's `applies_to` names and the current one) or seen in public reports: each meets the
signature written for it, and the look-alike lines named beside it do not. A signature's own
example is checked elsewhere (test_patterns.py); these are the other wordings it must also take."""
import pytest

from relref.match import load_engine

# (reference, signature, line as printed)
MEETS = [
    # PyTorch ProcessGroupNCCL, 2.6+ and older 2.x wordings of the watchdog summary
    ("silent-hang", "nccl-watchdog-exception-summary",
     "[rank1]:[E1002 16:04:30.860963433 ProcessGroupNCCL.cpp:2252] [PG ID 1 PG GUID 1 Rank 1]  failure detected by watchdog at work sequence id: 1116 PG status: last enqueued work: 1118, last completed work: 1115"),
    ("gpu-lost-collective-timeout", "nccl-watchdog-exception-summary",
     "[rank4]:[E318 07:39:53.792780659 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 9 Rank 4] Timeout at NCCL work: 610, last enqueued NCCL work: 616, last completed NCCL work: 609."),
    ("network-partition", "nccl-watchdog-exception-summary",
     "[rank3]:[E710 18:00:32.426302794 ProcessGroupNCCL.cpp:2395] [PG ID 0 PG GUID 0(default_pg) Rank 3]  failure detected by watchdog at work sequence id: 59958 PG status: last enqueued work: 59998, last completed work: 59957"),
    ("silent-hang", "heartbeat-monitor-terminating",
     "[rank0]:[F919 07:00:13.418192812 ProcessGroupNCCL.cpp:1653] [PG ID 0 PG GUID 0(default_pg) Rank 0] [PG ID 0 PG GUID 0(default_pg) Rank 0] Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang."),
    ("training-stuck-no-progress", "dump-signal-collective-timeout",
     "[rank3]:[F710 18:08:32.707469047 ProcessGroupNCCL.cpp:1725] [PG ID 0 PG GUID 0(default_pg) Rank 3] [PG ID 0 PG GUID 0(default_pg) Rank 3] Terminating the process after attempting to dump debug info, due to collective timeout or exception."),
    ("training-restart-stuck", "store-based-barrier-timeout",
     "RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:10:00)"),
    # c10d's store waits: the 2.5+ DistStoreError and its 2.4 form, the socket's waitForInput warnings in both
    # wordings (vllm-project/vllm #52907, sgl-project/sglang #3398, bmaltais/kohya_ss #2899, pytorch/torchtitan #1492)
    ("training-stuck-no-progress", "c10d-store-wait-timeout",
     "(Worker pid=2437300) ERROR 08-31 06:22:53 [multiproc_executor.py:944] torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//2//cpu//0/2"),
    ("silent-hang", "c10d-store-wait-timeout", "torch.distributed.DistStoreError: Socket Timeout"),
    ("training-stuck-no-progress", "c10d-socket-wait-for-input-timeout",
     "[rank3]:[W208 00:55:32.444220068 socket.cpp:487] [c10d] waitForInput: socket SocketImpl(fd=103, addr=[::ffff:11.130.1.53]:52362, remote=[::ffff:11.130.1.53]:5000) timed out after 1800000ms"),
    ("silent-hang", "c10d-socket-wait-for-input-timeout",
     "[rank2]:[W1014 03:47:39.789025589 socket.cpp:428] [c10d] While waitForInput, poolFD failed with (errno: 0 - Success)."),
    ("training-stuck-no-progress", "c10d-socket-wait-for-input-timeout",
     "[rank0]:[rank4]:[W731 01:01:29.544034999 socket.cpp:460] [c10d] waitForInput: poll for socket SocketImpl(fd=49, addr=jrc0913.jureca:46374, remote=jrc0912.jureca:38293) returned 0, likely a timeout"),
    ("silent-hang", "nccl-unique-id-store-timeout",
     "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait timeout after 600000ms, keys: /default_pg//0. This may indicate a possible application crash on rank 0 or a network set up issue."),
    ("training-restart-stuck", "store-based-barrier-timeout",
     "torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank 0, for key: store_based_barrier_key:1 (world_size=2, num_workers_joined=1, timeout=0:30:00 error=…)"),
    # NCCL sockets and IB
    ("network-partition", "nccl-socket-connect-failed",
     "ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort"),
    ("infiniband-roce-link-faults", "net-ib-async-qp-error",
     "h100-28:238:1219 [0] transport/net_ib.cc:180 NCCL WARN NET/IB : mlx5_ib0:1 async fatal event on QP (0x7f69f01519a8): local access violation work queue error"),
    ("infiniband-roce-link-faults", "net-ib-communicator-fatal-error",
     "h100-28:238:1313 [0] transport/net_ib.cc:139 NCCL WARN communicator encountered a fatal error (detected in ncclIbIsend)"),
    ("infiniband-roce-link-faults", "ibstat-physical-state-not-linkup", "\tphys state:\t 3: Disabled"),
    # link tools: ibstatus and ibv_devinfo port states, perfquery's dotted counters (rdma-core), and NVLink as
    # NVML reports it (NVIDIA/open-gpu-kernel-modules #1150) and as nvidia-smi nvlink -s prints it
    ("infiniband-roce-link-faults", "ibstat-port-state-down", "\tstate:\t\t 1: DOWN"),
    ("infiniband-roce-link-faults", "ibstat-port-state-down", "\t\t\tstate:\t\t\tPORT_DOWN (1)"),
    ("infiniband-roce-link-faults", "ib-port-error-counters-nonzero", "SymbolErrorCounter:..............65535"),
    ("infiniband-roce-link-faults", "ib-port-error-counters-nonzero", "LinkDownedCounter:...............12"),
    ("infiniband-roce-link-faults", "ib-port-error-counters-nonzero", "PortRcvRemotePhysicalErrors:.....7"),
    ("nvlink-nvswitch-errors", "nvml-all-nvlinks-inactive", "NVML:Unable to retrieve Nvlink information as all links are inActive"),
    ("nvlink-nvswitch-errors", "nvidia-smi-nvlink-link-inactive", "         Link 17: <inactive>"),
    # The NVIDIA driver, the kernel and DCGM
    ("application-error-looks-like-gpu-fault", "cuda-unspecified-launch-failure",
     "[rank1]:[E410 01:50:33.889423318 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: CUDA error: unspecified launch failure"),
    ("application-error-looks-like-gpu-fault", "xid-app-error-mig-instance",
     "NVRM: Xid (PCI:0000:3b:00 GPU-I:01 GPU-CI:02): 13, pid=9, name=a, Graphics Exception"),
    ("gsp-firmware-timeout", "xid-175-gsp-timeout-memory-subsystem",
     "NVRM: Xid (PCI:0000:9b:00 GPU-I:01): 175, pid=2024380, name=nvidia-smi, Timeout after 45s of waiting for RPC response from GPU0 GSP! Expected function 10 (FREE) sequence 77 (0x0 0x0)."),
    ("pcie-link-power-thermal-faults", "aer-nvidia-cant-recover",
     "nvidia 0000:3b:00.0: AER: Can't recover (no error_detected callback)"),
    ("gpu-memory-errors", "dcgm-double-bit-ecc", "Detected 333 volatile double-bit ECC error(s) in GPU 0."),
    ("gpu-lost-collective-timeout", "dcgm-health-fallen-off-bus",
     "GPU 7 has fallen off the bus (triggered by XID 79: GPU %d has fallen off the bus)"),
    # Checkpoints and data files
    ("training-resume-failure", "dcp-missing-key-in-checkpoint",
     "[rank3]: RuntimeError: Missing key in checkpoint state_dict: dataloader.dp_rank_0."),
    ("training-resume-failure", "dcp-size-mismatch",
     "[rank1]: ValueError: Size mismatch between saved torch.Size([151936, 4096]) and current: torch.Size([152064, 4096]) for model.embed_tokens.weight"),
    ("training-resume-failure", "hf-no-checkpoint-in-output-dir", "ValueError: No valid checkpoint found in output directory (./outputs/)"),
    ("checkpoint-corruption-on-write", "stream-writer-write-failed",
     "RuntimeError: [enforce fail at inline_container.cc:603] . PytorchStreamWriter failed writing central directory for archive checkpoint: file write failed"),
    ("checkpoint-corruption-on-write", "safetensors-zero-header-length",
     "safetensors._safetensors_rust.SafetensorError: Error while deserializing header: invalid JSON in header: EOF while parsing a value at line 1 column 0"),
    ("checkpoint-partial-save", "trainer-state-missing-on-resume",
     "FileNotFoundError: [Errno 2] No such file or directory: './work_dirs/llava/checkpoint-1000/trainer_state.json'"),
    # the Trainer's rename race as EEXIST, without the rank prefix (modelscope/ms-swift #3049)
    ("checkpoint-partial-save", "trainer-tmp-checkpoint-rename-exists",
     "FileExistsError: [Errno 17] File exists: '/root/autodl-tmp/Qwen2.5-VL/output/Qwen/v4-20250210-182955/tmp-checkpoint-f4fsdt_x' -> '/root/autodl-tmp/Qwen2.5-VL/output/Qwen/v4-20250210-182955/checkpoint-276'"),
    # burn-in and memory-test tools, filled from their format strings (wilicc/gpu-burn gpu_burn-drv.cpp, nccl-tests
    # src/common.cu of v1.0.0, cuda_memtest tests.cpp under --monitor_temp, DCGM DcgmRecorder.cpp and dcgm_errors.h)
    ("silent-data-corruption", "gpu-burn-faulty-gpu", "        GPU 12: FAULTY"),
    ("silent-data-corruption", "gpu-burn-errors-warning",
     "50.0%  proc'd: 120 / 118   errors: 0 / 7  (WARNING!)  temps: 70 C / 71 C "),
    ("silent-data-corruption", "nccl-tests-out-of-bounds", " Out of bounds values : 2 FAILED"),
    ("silent-data-corruption", "cuda-memtest-errors-found",
     "[05/14/2024 10:12:01][node1][2][71 C]:ERROR: (move_inv_read) 1 errors found in block 0"),
    ("gpu-memory-errors", "dcgm-double-bit-ecc", "Detected 2 ecc_dbe_volatile_total for GPU 5 which is above the threshold 0"),
    ("gpu-memory-errors", "dcgm-volatile-sbe", "Detected 120 ecc_sbe_volatile_total for GPU 0 which is above the threshold 100"),
    ("gpu-memory-errors", "dcgm-retired-pages-limit",
     "An excess of 15 retired pages due to DBEs have been detected and more than one page has been retired due to DBEs in the past week in GPU 3."),
    ("gpu-memory-errors", "dcgm-row-remap-limit", "GPU 3 exceeded uncorrectable row remap limit with 600 remapped rows"),
    ("hdf5-corruption", "metadata-checksum-mismatch",
     "KeyError: 'Unable to synchronously open object (incorrect metadata checksum after all read attempts)'"),
    # throttled GPUs: nvidia-smi -q's clocks event (older: throttle) reasons, DCGM diag's clocks-event and violation
    # texts in their 2.1-3.3 and 4.x wordings (NVIDIA/DCGM DcgmRecorder.cpp, dcgm_errors.h)
    ("pcie-link-power-thermal-faults", "smi-hw-slowdown-active", "        HW Slowdown                 : Active"),
    ("pcie-link-power-thermal-faults", "smi-sw-power-cap-active", "        SW Power Cap                : Active"),
    ("pcie-link-power-thermal-faults", "dcgm-clocks-event-violation-thermal",
     "Clocks are being throttled for GPU 0 because of clock throttling starting 12.3 seconds into the test. clocks_throttle_reason_hw_thermal_slowdown: the GPU or its memory have reached unsafe temperatures."),
    ("pcie-link-power-thermal-faults", "dcgm-clocks-event-violation-hw-slowdown",
     "Clocks event for GPU 1 because of clocks event starting 3.5 seconds into the test. clocks_event_reason_hw_power_brake_slowdown: the power brake assertion has triggered. Please check the power supply."),
    ("pcie-link-power-thermal-faults", "dcgm-thermal-violations", "There were thermal violations totaling 13 seconds for GPU 0"),
    ("pcie-link-power-thermal-faults", "dcgm-thermal-violations", "Thermal violations totaling 13 samples started at 2.0 seconds into the test for GPU 0"),
    ("straggler-slow-rank", "smi-clocks-event-reason-active", "            HW Power Brake Slowdown       : Active"),
    ("straggler-slow-rank", "smi-clocks-event-reason-active", "        SW Thermal Slowdown               : Active"),
    ("straggler-slow-rank", "dcgm-clocks-event-slowdown", "Detected clock throttling due to power violation in GPU 2."),
    # Memory and processes
    ("oom-killed-mid-step", "mp-spawn-process-terminated-sigkill", "Exception: process 3 terminated with signal SIGKILL"),
    ("oom-killed-mid-step", "launcher-calledprocesserror-sigkill",
     "Command '['/opt/conda/bin/python', '-u', 'tools/train.py', '--local_rank=3']' died with <Signals.SIGKILL: 9>."),
    ("oom-killed-mid-step", "deepspeed-launcher-return-code-minus-9",
     "[ERROR] [launch.py:321:sigkill_handler] ['python', '-u', 'x.py', '--local_rank=1'] exits with return code = -9"),
    ("oom-killed-mid-step", "cuda-malloc-async-out-of-memory",
     "OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory) Currently allocated : 12.20 GiB Requested : 1.88 GiB"),
    ("dataloader-failure", "killed-by-bus-error-shm", "RuntimeError: DataLoader worker (pid 325) is killed by signal: Bus error."),
    ("dataloader-failure", "shm-open-too-many-open-files",
     "RuntimeError: unable to open shared memory object </torch_735354_2766238047_18> in read-write mode: Too many open files (24)"),
    ("dataloader-failure", "shm-open-failed",
     "RuntimeError: unable to open shared memory object </torch_310_3681426278_102> in read-write mode: No such file or directory (2)"),
    ("zombie-process", "libgomp-thread-creation-failed", "(pid=116340) libgomp: Thread creation failed: Resource temporarily unavailable"),
    # DeepSpeed ZeRO-3 and vLLM
    ("deepspeed-zero3-partition-inflight-save", "partition-in-flight-assert",
     '        assert param.ds_status is not ZeroParamStatus.INFLIGHT, f" {param} Cannot parititon a param in flight"'),
    ("vllm-enginecore-dead-500", "v0-mq-engine-dead",
     "      | vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running. Inspect the stacktrace to find the original error: TimeoutError('No heartbeat received from MQLLMEngine')."),
    ("vllm-enginecore-dead-500", "v0-server-terminating",
     "CRITICAL 11-12 19:15:08 launcher.py:99] MQLLMEngine is already dead, terminating server process"),
    # Logging and preemption
    ("wandb-tensorboard-failure", "wandb-service-start-timeout",
     "wandb.sdk.lib.service.service_port_file.ServicePollForTokenError: Failed to read port info after 30.0 seconds."),
    ("wandb-tensorboard-failure", "wandb-filestream-fatal-upload",
     "wandb: ERROR Fatal error while uploading data. Some run data will not be synced, but it will still be written to disk. Use `wandb sync` at the end of the run to try uploading."),
    ("job-preemption-spot-termination", "k8s-preempted-by-event", "Preempted by default/urgent on node worker01"),
    ("job-preemption-spot-termination", "slurmctld-preempted-reclaim", "slurm_job_preempt: preempted JobId=4242 had to be killed"),
    ("spot-instance-preemption", "k8s-pod-terminated-node-shutdown", "Message:        Node is shutting, evicting pods"),
    # The flight recorder analyser's report of a collective whose entries disagree (v2.6.0 tools/flight_recorder)
    ("silent-hang", "fr-trace-collective-errors", "Input/output mismatch in the collective sequence number: 12"),
    ("training-stuck-no-progress", "fr-trace-collective-errors", "Collective sequence number: 7 has errors"),
    ("silent-hang", "fr-trace-culprit-mismatch", "error msg: Culprit rank 5; Error type: COLLECTIVE_TYPE_MISMATCH, Expected collective type: 'nccl:all_reduce' does not match found collective type: 'nccl:all_gather'"),
    ("silent-hang", "cluster-fs-frame-in-stack", "[Sat Mar  4 04:10:52 2023]  cxiWaitEventWait+0x208/0x330 [mmfslinux]"),
    ("training-stuck-no-progress", "cluster-fs-frame-in-stack", "[<ffffffffc1191a80>] ptlrpc_set_wait+0x480/0x790 [ptlrpc]"),
    ("spot-instance-preemption", "logind-power-key-pressed", "Dec 17 16:04:09 worker-1 systemd-logind[812]: Power key pressed."),
    ("spot-instance-preemption", "logind-power-key-pressed", "Dec 17 16:04:09 worker-1 systemd-logind[812]: Power key pressed long."),
    # Round 2: older releases and the lines that end a run
    ("network-partition", "c10d-client-connect-failed",
     "[W socket.cpp:601] [c10d] The client socket has failed to connect to [elastic-example-imagenet-worker-0.default.svc.cluster.local]:43461 (errno: 113 - No route to host)."),
    ("network-partition", "c10d-client-connect-timeout", "RuntimeError: connect() timed out."),
    ("network-partition", "torchelastic-rendezvous-connection-error",
     "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to etcd has failed. See inner exception for details."),
    ("network-partition", "nccl-bootstrap-no-socket-interface",
     "gpu0:1:1 [0] bootstrap.cc:120 NCCL WARN NET/Socket : No usable listening interface found"),
    ("network-partition", "nccl-oob-net-ifname-no-device", "NCCL WARN no device found after excluding exactly mlx5_0:1, verify NCCL_OOB_NET_IFNAME"),
    ("infiniband-roce-link-faults", "net-ib-async-gid-change", "node1:100:200 [0] transport/net_ib.cc:80 NCCL WARN NET/IB : mlx5_0:1 GID table changed"),
    ("oom-killed-mid-step", "childfailederror-exitcode-minus-9", "  exitcode: -9 (pid: 14750)"),
    ("oom-killed-mid-step", "torchelastic-child-process-failed-exitcode-minus-9", "Child process 4041 (local_rank 3) FAILED (exitcode -9)"),
    ("oom-killed-mid-step", "kernel-killed-process-unprefixed",
     "[Thu Mar 14 01:57:55 2019] Killed process 89746 (python) total-vm:118026216kB, anon-rss:109819332kB, file-rss:3324kB, shmem-rss:0kB"),
    ("oom-killed-mid-step", "kubelet-system-oom-event", "System OOM encountered, victim process: python, pid: 2606"),
    ("oom-killed-mid-step", "torchrun-local-rank-exitcode-minus-9",
     "failed (exitcode: -9) local_rank: 0 (pid: 4041) of binary: /usr/bin/python3"),
    ("cgroup-memory-limit", "slurm-exceeded-memory-limit-being-killed",
     "slurmstepd: error: StepId=1234.0 exceeded virtual memory limit (10889240 > 4194304), being killed"),
    ("cgroup-memory-limit", "slurmd-job-exceeded-memory-limit-cancelling",
     "[2024-05-01T10:00:00.123] Job 848444 exceeded virtual memory limit (90000>32768), cancelling it"),
    ("gpu-memory-errors", "dcgm-contained-error", "Detected XID 94 for GPU 0"),
    ("gpu-memory-errors", "dcgm-pending-page-retirement", "Pending page retirements together with a DBE were detected on GPU 1."),
    ("pcie-link-power-thermal-faults", "dcgm-pcie-link-below-minimum",
     "GPU 2 is running at PCI link width 8X, which is below the minimum allowed link generation of 16 (parameter 'min_pci_width')"),
    ("pcie-link-power-thermal-faults", "dcgm-temperature-violation",
     "Temperature 101 of HBM Memory on GPU 3 exceeded user-specified maximum allowed temperature 95"),
    ("gsp-firmware-timeout", "dcgm-xid-gsp", "Detected XID 120 for GPU 7 Please consult the documentation for details of this XID. (triggered by XID 120: GSP Error)"),
    ("nvlink-nvswitch-errors", "xid-136-nvlink-training-failed",
     "NVRM: Xid (PCI:0000:1b:00): 136, NVLink: Link training failed for links 0x3ffff(0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)"),
    ("nvlink-nvswitch-errors", "dcgm-nvlink-errors",
     "Detected 150 nvlink_flit_crc_error_count_total NvLink errors on GPU 0's NVLink which exceeds threshold of 100"),
    ("checkpoint-corruption-on-write", "torch-load-file-read-failed",
     "[rank2]: RuntimeError: PytorchStreamReader failed reading file data/3: file read failed"),
    ("hdf5-corruption", "old-format-group-metadata-damage", "KeyError: 'Unable to open object (bad heap free list)'"),
    ("hdf5-corruption", "object-addr-past-eoa", "RuntimeError: Object visitation failed (actual len exceeds EOA)"),
    ("training-resume-failure", "weights-only-generic-failure",
     "UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source."),
    ("vllm-enginecore-dead-500", "v0-engine-iteration-timeout",
     "ERROR 06-25 17:27:19 [async_llm_engine.py:883] Engine iteration timed out. This should never happen!"),
    ("wandb-tensorboard-failure", "wandb-service-exited",
     "wandb.sdk.lib.service.service_port_file.ServicePollForTokenError: wandb-core exited with code 3221225794"),
    ("dataloader-failure", "pin-memory-thread-exited", "RuntimeError: Pin memory thread exited unexpectedly."),
    ("dataloader-failure", "worker-killed-sigterm", "[rank0]: RuntimeError: DataLoader worker (pid 111114) is killed by signal: Terminated. "),
    # Round 3: what detectors and tools print for the symptom references
    ("straggler-slow-rank", "nvrx-relative-straggler-warning",
     "[NeMo W 2024-11-02 10:11:12 straggler_det_callback:125] STRAGGLER DETECTION WARNING: Some GPUs have worse relative performance. Affected ranks: {StragglerId(rank=5, node='node-03')}"),
    ("straggler-slow-rank", "nvrx-stragglers-stop-training", "Detected stragglers. Training should be stopped."),
    ("caching-allocator-fragmentation-stragglers", "cuda-allocator-malloc-oom-retry-warning",
     "[rank0]:[W905 00:28:47 CUDACachingAllocator.cpp:508] expandable_segments: memory mapping failed with OOM on device 0 while trying to map 20971520 bytes (free: 4521984, total: 101971460096)"),
    ("python-gc-stragglers", "gc-debug-done-elapsed", "gc: done, 0.2100s elapsed"),
    ("silent-data-corruption", "megatron-nan-local-grad-assert",
     "AssertionError: Rank 3: found NaN in local grad norm in backwards pass. Device: 3, node: gpu-node-017"),
    ("silent-data-corruption", "megatron-rerun-hardware-suspect", "Rank 11, node gpu-node-017, device 3: Possible persistent error!!"),
    ("bf16-exponent-bit-flip-divergence", "megatron-rerun-correct-result",
     "Second rerun: unexpected result is reproducible on a different GPU, therefore it was likely correct (nan = nan)"),
    ("silent-data-corruption", "dcgm-diagnostic-miscompare", "Found 12 NaN-value memory elements on GPU 7"),
    ("silent-data-corruption", "pytorch-anomaly-nan", "RuntimeError: Function 'MmBackward0' returned nan values in its 1th output."),
    ("silent-hang", "py-spy-collective-frame",
     "    all_reduce (/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py:2806)"),
    ("training-stuck-no-progress", "hung-task-training-process", "INFO: task pt_data_worker:4242 blocked for more than 241 seconds."),
    ("silent-hang", "fr-trace-not-all-ranks-joining", "Not all ranks joining collective, sequence number: 4"),
    ("training-stuck-no-progress", "monitored-barrier-timeout", "RuntimeError: Rank 0 timed out in monitoredBarrier after 2000 ms."),
    ("nfs-mount-failure", "nfs-client-frame-in-stack", "[<0>] rpc_wait_bit_killable+0x24/0xa0 [sunrpc]"),
    ("zombie-gpu-process", "cuda-devices-busy-or-unavailable", "CUDA error: CUDA_ERROR_DEVICE_UNAVAILABLE"),
    ("zombie-gpu-process", "call-trace-waiting-on-nvidia-lock", " ? os_acquire_semaphore+0x31/0x50 [nvidia]"),
    ("zombie-process", "openmp-no-resources-for-thread", "OMP: Error #35: System unable to allocate necessary resources for the monitor thread:"),
    ("replayed-logs-false-hardware-diagnosis", "nvrm-forced-shutdown-by-error-injection",
     "NVRM: GPU12 _kgspRpcGspForcedDriverShutdown: Forcing driver shutdown by error injection test, marking GPU12 for reset!"),
    ("replayed-logs-false-hardware-diagnosis", "gpud-fault-injection-marker", "marking row remapping pending to inject failures"),
    ("gb200-nvl72-xid-150-154-firmware-hang", "xid-150-mse-error",
     "NVRM: Xid (PCI:0000:04:00): 150, MSE_WATCHDOG Fatal XC0 i0 Link 00 (0x00000000 0x00000000 0x00000000 0x00000000)"),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[clx-orion-097:26451:0:26451] rc_verbs_iface.c:63   FATAL: send completion with error: transport retry counter exceeded'),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', 'Wed Jun 22 15:48:08 2016[1,43]<stdout>:[1466599688.714393] [vegas30:25196:0] rc_verbs_iface.c:47   UCX  ERROR Send completion with error: transport retry counter exceeded'),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[lxbk1127:2330859:0:2330859] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)'),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[compute001:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)'),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[ast1815:6807 :0:6807] ib_mlx5_log.c:115  FATAL: Error on mlx5_3:1 QP 0xe6d7 wqe[7821]: Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND'),
    ('infiniband-roce-link-faults', 'ibstatus-no-ib-device', "Fatal error:  device '*': sys files not found (/sys/class/infiniband/*/ports)"),
    ('infiniband-roce-link-faults', 'ibstatus-no-ib-device', "Fatal error:  device 'mlx5_9': sys files not found (/sys/class/infiniband/mlx5_9/ports)"),
    ('infiniband-roce-link-faults', 'ibstatus-no-ib-device', 'Fatal error:  No devices'),
    ('network-partition', 'nccl-error-string-system-error', 'RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:272, unhandled system error'),
    ('network-partition', 'nccl-error-string-system-error', 'NCCL error in: /torch/lib/c10d/ProcessGroupNCCL.cpp:260, unhandled system error'),
    ('network-partition', 'nccl-socket-init-bad-address-family', 'ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)'),
    ('network-partition', 'nccl-socket-init-bad-address-family', 'node1:3011:3090 [0] misc/socket.cc:397 NCCL WARN Net : connecting to address  with family 0 is neither AF_INET(2) nor AF_INET6(10)'),
    ('network-partition', 'nccl-socket-init-bad-address-family', 'node1:3011:3090 [0] include/socket.h:370 NCCL WARN Error : connecting to address with family 0 is neither AF_INET(2) nor AF_INET6(10)'),
    ('network-partition', 'socket-recv-timed-out', 'worker-1:412:980 [3] misc/socket.cc:518 NCCL WARN Net : Call to recv from 100.96.188.199<41468> failed : Connection timed out'),
    ('network-partition', 'socket-recv-timed-out', 'node-3:7781:7840 [2] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.1.4.17<52211> failed : Connection timed out'),
    ('network-partition', 'socket-recv-timed-out', 'node-3:7781:7840 [2] include/socket.h:421 NCCL WARN Call to recv failed : Connection timed out'),
    ('network-partition', 'nccl-socket-progress-error', 'node-2:2214:2281 [0] transport/net_socket.cc:217 NCCL WARN NET/Socket : socket progress error'),
    ('network-partition', 'nccl-socket-progress-error', 'node-2:2214:2281 [0] transport/net_socket.cc:325 (persistentSocketThread) NCCL WARN NET/Socket : socket progress error'),
    ('zombie-process', 'go-runtime-newosproc-eagain', 'runtime: failed to create new OS thread (have 5 already; errno=11)'),
    ('zombie-process', 'go-runtime-newosproc-eagain', 'runtime: failed to create new OS thread (have 772 already; errno=11)'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-exec-failed', '  Process: 2114 ExecStart=/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg (code=exited, status=1/FAILURE)'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-exec-failed', '    Process: 4776 ExecStartPre=/usr/bin/nvidia-fabricmanager-start.sh --mode precheck (code=exited, status=1/FAILURE)'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-job-failed', 'Job for nvidia-fabricmanager.service failed because the control process exited with error code. See "systemctl status nvidia-fabricmanager.service" and "journalctl -xe" for details.'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-job-failed', 'Job for nvidia-fabricmanager.service failed because a timeout was exceeded.'),
    ('hdf5-corruption', 'truncated-file', 'OSError: Unable to synchronously open file (truncated file: eof = 2885034848, sblock->base_addr = 0, stored_eof = 2885034880)'),
    ('hdf5-corruption', 'truncated-file', 'IOError: Unable to open file (Truncated file: eof = 15030288384, sblock->base_addr = 0, stored_eoa = 15807826032)'),
    ('hdf5-corruption', 'truncated-file', '  #006: H5Fsuper_cache.c line 472 in H5F_sblock_load(): truncated file'),
    ('hdf5-corruption', 'truncated-file', 'IOError: Unable to open file (Truncated file)'),
    ('checkpoint-corruption-on-write', 'tf-tmp-checkpoint-write-failed', 'InternalError (see above for traceback): Error writing (tmp) checkpoint file: /home/doyouunderstand/.local/share/deepspeech_wer/checkpoint/205aed8/model.ckpt-6.tempstate9784191321997661396: Resource exhausted: /home/doyouunderstand/.local/share/deepspeech_wer/checkpoint/205aed8/model.ckpt-6.tempstate9784191321997661396'),
    ('checkpoint-corruption-on-write', 'tf-tmp-checkpoint-write-failed', 'tensorflow.python.framework.errors_impl.InternalError: Error writing (tmp) checkpoint file: /data/ckpt/model.ckpt-2000.tempstate1180394226958236671: Resource exhausted: /data/ckpt/model.ckpt-2000.tempstate1180394226958236671; No space left on device'),
    ('checkpoint-corruption-on-write', 'tf-tmp-checkpoint-write-failed', 'tensorflow.python.framework.errors_impl.InternalError: Error writing (tmp) checkpoint file: /data/ckpt/model.ckpt-2000.tempstate1180394226958236671: /data/ckpt/model.ckpt-2000.tempstate1180394226958236671; Disk quota exceeded'),
]

# (reference, signature, a line it must not take: another signal, status or device)
MISSES = [
    # reasons that are not active, and the idle reason
    ("pcie-link-power-thermal-faults", "smi-hw-slowdown-active", "        HW Slowdown                       : Not Active"),
    ("pcie-link-power-thermal-faults", "smi-sw-power-cap-active", "        SW Power Cap                      : Not Active"),
    ("straggler-slow-rank", "smi-clocks-event-reason-active", "            HW Thermal Slowdown           : Not Active"),
    ("straggler-slow-rank", "smi-clocks-event-reason-active", "        Idle                              : Active"),
    # the same tools on healthy links
    ("infiniband-roce-link-faults", "ibstat-port-state-down", "\t\tState: Active"),
    ("infiniband-roce-link-faults", "ibstat-port-state-down", "\t\t\tstate:\t\t\tPORT_ACTIVE (4)"),
    ("infiniband-roce-link-faults", "ib-port-error-counters-nonzero", "SymbolErrorCounter:..............0"),
    ("infiniband-roce-link-faults", "ib-port-error-counters-nonzero", "GUID 0xc42a10300dcf8e2 port 1: [PortXmitWait == 12097916]"),
    ("nvlink-nvswitch-errors", "nvidia-smi-nvlink-link-inactive", "         Link 0: 53.125 GB/s"),
    # healthy results of the same tools
    ("silent-data-corruption", "gpu-burn-faulty-gpu", "\tGPU 0: OK"),
    ("silent-data-corruption", "nccl-tests-out-of-bounds", "# Out of bounds values : 0 OK"),
    # the launcher's rendezvous at start is not a stalled job's store wait (modelscope/ms-swift #4924)
    ("training-stuck-no-progress", "c10d-store-wait-timeout",
     "torch.distributed.DistStoreError: wait timeout after 900000ms, keys: /none/torchelastic/role_info/0, /none/torchelastic/role_info/1"),
    # a socket error, not a timeout
    ("silent-hang", "c10d-socket-wait-for-input-timeout",
     "[rank2]:[W1014 03:47:39.789025589 socket.cpp:428] [c10d] While waitForInput, poolFD failed with (errno: 104 - Connection reset by peer)."),
    # a directory that exists is not the Trainer's staging rename (junyanz/pytorch-CycleGAN-and-pix2pix #1000)
    ("checkpoint-partial-save", "trainer-tmp-checkpoint-rename-exists", "FileExistsError: [Errno 17] File exists: './checkpoints/gan_pix2pix'"),
    ("oom-killed-mid-step", "mp-spawn-process-terminated-sigkill",
     "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV"),
    ("oom-killed-mid-step", "deepspeed-launcher-return-code-minus-9",
     "[ERROR] [launch.py:321:sigkill_handler] ['python', '-u', 'x.py', '--local_rank=1'] exits with return code = -11"),
    ("pcie-link-power-thermal-faults", "aer-nvidia-cant-recover",
     "snd_hda_intel 0000:03:00.1: AER: can't recover (no error_detected callback)"),
    ("infiniband-roce-link-faults", "ibstat-physical-state-not-linkup", "\tphys state:\t 5: LinkUp"),
    ("silent-hang", "heartbeat-monitor-terminating",
     "[rank3]:[F710 18:08:32.707469047 ProcessGroupNCCL.cpp:1725] [PG ID 0 PG GUID 0(default_pg) Rank 3] Terminating the process after attempting to dump debug info, due to collective timeout or exception."),
    # a zeroed file's reasonless weights-only line is not the weights_only default
    ("training-resume-failure", "weights-only-load-failed",
     "_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution.Do it only if you get the file from a trusted source. WeightsUnpickler error: Unsupported operand 118"),
    ("hdf5-corruption", "old-format-group-metadata-damage", "OSError: Can't read data (wrong B-tree signature)"),
    ("nfs-mount-failure", "nfs-client-frame-in-stack", " ? nfsd+0xe3/0x127 [nfsd]"),
    ("zombie-gpu-process", "call-trace-waiting-on-nvidia-lock", " os_acquire_spinlock+0x12/0x30 [nvidia]"),
    ("zombie-process", "openmp-no-resources-for-thread", "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized."),
    ("replayed-logs-false-hardware-diagnosis", "gpud-fault-injection-marker", "the client can be injected for testing"),
    ("silent-hang", "py-spy-collective-frame", "    wrapper (torch/distributed/c10d_logger.py:83)"),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[1496344648.548260] [vegas06:14879:0]       dc_verbs.c:614  UCX  ERROR Send completion with error on qp 0x6183: remote access error syndrome 0x88'),
    ('infiniband-roce-link-faults', 'ucx-completion-retry-exceeded', '[1465985478.473101] [pod9:4536 :0] rc_verbs_iface.c:47   UCX  ERROR Send completion with error: local length error'),
    ('infiniband-roce-link-faults', 'ibstatus-no-ib-device', "ibpanic: [1323906] main: stat of IB device 'mlx5_8' failed: No such file or directory"),
    ('infiniband-roce-link-faults', 'ibstatus-no-ib-device', 'No IB devices found'),
    ('network-partition', 'nccl-error-string-system-error', 'RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:260, unhandled cuda error'),
    ('network-partition', 'nccl-error-string-system-error', 'RuntimeError: NCCL Error 2: unhandled system error'),
    ('network-partition', 'nccl-socket-init-bad-address-family', 'include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol'),
    ('network-partition', 'socket-recv-timed-out', 'gpu-bql-144-103:18553:18611 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out'),
    ('network-partition', 'socket-recv-timed-out', 'Output: mount.nfs: Connection timed out'),
    ('network-partition', 'nccl-socket-progress-error', 'ubuntu:39964:40044 [0] proxy.cc:1143 NCCL WARN Socket recv failed while polling for opId=0x7f6f18cb7f40'),
    ('zombie-process', 'go-runtime-newosproc-eagain', 'runtime: failed to create new OS thread (have 5 already; errno=12)'),
    ('zombie-process', 'go-runtime-newosproc-eagain', 'micromeasurements_php | runtime: failed to create new OS thread (have 2 already; errno=22)'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-exec-failed', '    Process: 2114 ExecStart=/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg (code=exited, status=0/SUCCESS)'),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-job-failed', "A dependency job for nvidia-fabricmanager.service failed. See 'journalctl -xe' for details."),
    ('nvlink-nvswitch-errors', 'systemctl-fabric-manager-job-failed', 'Job for nvidia-persistenced.service failed because the control process exited with error code.'),
    ('hdf5-corruption', 'truncated-file', 'OSError: image file is truncated (3 bytes not processed)'),
    ('hdf5-corruption', 'truncated-file', "KeyError: 'Unable to synchronously open object (addr overflow, addr = 64392369, size = 96, eoa = 64365353)'"),
    ('checkpoint-corruption-on-write', 'tf-tmp-checkpoint-write-failed', 'RuntimeError: [enforce fail at inline_container.cc:857] . PytorchStreamWriter failed writing file data/322: file write failed'),
    ('checkpoint-corruption-on-write', 'tf-tmp-checkpoint-write-failed', 'UnknownError: drive/Colab Notebooks/saved_model/model.ckpt-313.data-00000-of-00001.tempstate17496649906120132702; Input/output error'),
]


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def _signatures_met(engine, line: str) -> set:
    result = engine.match(line, top=len(engine.refs))
    return {(m["id"], w["signature"]) for m in result["matches"] for w in m["why"] if w["kind"] == "signature"}


@pytest.mark.parametrize("ref, signature, line", MEETS, ids=[f"{r}/{s}" for r, s, _ in MEETS])
def test_a_printed_variant_meets_its_signature(engine, ref, signature, line):
    assert (ref, signature) in _signatures_met(engine, line)


@pytest.mark.parametrize("ref, signature, line", MISSES, ids=[f"{r}/{s}" for r, s, _ in MISSES])
def test_a_look_alike_line_does_not(engine, ref, signature, line):
    assert (ref, signature) not in _signatures_met(engine, line)


def test_a_gpu_in_mig_mode_still_names_its_xid_code(engine):
    """The driver puts the MIG instance after the bus id; the Xid is read all the same, so an
    application Xid in MIG mode is held back from a hardware verdict as it is without MIG."""
    line = "NVRM: Xid (PCI:0000:01:00 GPU-I:05): 43, pid=7194, name=python, Ch 00000008"
    result = engine.match(line)
    assert [c["code"] for c in result["codes"] if c["kind"] == "xid"] == ["43"]
    assert result["verdict"] != "confident"
