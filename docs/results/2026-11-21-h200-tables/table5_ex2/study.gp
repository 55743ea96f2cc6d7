# bsde study: ex2, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 7.848945e-04 3.519402e-03 1.744856e+01 2.728638e+00
256 3.773782e-04 1.757868e-03 2.060402e+01 3.010047e+00
512 1.849054e-04 8.784709e-04 2.887542e+01 3.860292e+00
1024 9.151302e-05 4.391210e-04 3.928323e+01 5.691531e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 8.383067e-06 3.379037e-05 7.316697e+01 1.015064e+01
256 2.125833e-06 8.529115e-06 1.224472e+02 1.390304e+01
512 5.359853e-07 2.143991e-06 2.044230e+02 2.262016e+01
1024 1.345018e-07 5.373819e-07 3.284653e+02 3.053089e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 3.367657e-07 1.294887e-06 3.128484e+02 3.110716e+01
256 4.453689e-08 1.706502e-07 5.738989e+02 5.545579e+01
512 5.483769e-09 2.116975e-08 7.979748e+02 6.784283e+01
1024 6.955638e-10 2.684912e-09 ? 8.687426e+01
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.359818e-07 8.884296e-07 3.698898e+02 2.717942e+01
256 3.191790e-08 1.194279e-07 6.823038e+02 5.759765e+01
512 3.945310e-09 1.482585e-08 ? 7.292694e+01
1024 5.040639e-10 1.890525e-09 ? 9.650251e+01
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.519126e-07 9.565123e-07 4.137686e+02 3.115448e+01
256 3.423506e-08 1.290708e-07 7.680059e+02 6.410158e+01
512 4.250717e-09 1.609661e-08 ? 7.492905e+01
1024 5.431766e-10 2.052982e-09 ? 1.040357e+02
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
128 2.407273e-07 9.204166e-07 4.631742e+02 3.625860e+01
256 3.314257e-08 1.252496e-07 8.465856e+02 6.975358e+01
512 4.136391e-09 1.566196e-08 ? 8.134368e+01
1024 5.306229e-10 2.002677e-09 ? 1.005997e+02
EOD
set logscale x 2
set xtics (128, 256, 512, 1024)
set xrange [106.667:1228.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex2: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "ex2: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "ex2: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_omp.png"
set title "ex2: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
